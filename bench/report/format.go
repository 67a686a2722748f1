package main

import (
	"math"
	"strconv"
	"strings"
)

// sig formats v with three significant digits and no exponent: 1234 is
// "1234", 12.34 is "12.3", 0.0001234 is "0.000123".
func sig(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	decimals := max(0, 2-int(math.Floor(math.Log10(math.Abs(v)))))
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	// Rounding may carry into a new digit (9.996 → "10.00"): one decimal
	// too many, then.
	if decimals > 0 && len(strings.TrimLeft(strings.ReplaceAll(s, ".", ""), "-0")) > 3 {
		s = strconv.FormatFloat(v, 'f', decimals-1, 64)
	}
	return s
}

// seconds formats a duration given in seconds with three significant digits
// in ns, µs, ms or s.
func seconds(v float64) string {
	switch a := math.Abs(v); {
	case a == 0:
		return "0"
	case a < 1e-6:
		return sig(v*1e9) + " ns"
	case a < 1e-3:
		return sig(v*1e6) + " µs"
	case a < 1:
		return sig(v*1e3) + " ms"
	default:
		return sig(v) + " s"
	}
}

// count formats a count: whole and with thousands separators below a
// million, else with three significant digits and an SI prefix.
func count(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e9:
		return sig(v/1e9) + " G"
	case a >= 1e6:
		return sig(v/1e6) + " M"
	case a >= 100 || v == math.Trunc(v):
		return thousands(int64(math.Round(v)))
	default:
		return sig(v)
	}
}

// byteSize formats a byte count with three significant digits and a binary
// prefix.
func byteSize(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1<<30:
		return sig(v/(1<<30)) + " GiB"
	case a >= 1<<20:
		return sig(v/(1<<20)) + " MiB"
	case a >= 1<<10:
		return sig(v/(1<<10)) + " KiB"
	default:
		return sig(v) + " B"
	}
}

// ratio formats a ratio as "0.41×", "12.3×" or "12,345×".
func ratio(r float64) string {
	switch a := math.Abs(r); {
	case a < 10:
		return strconv.FormatFloat(r, 'f', 2, 64) + "×"
	case a < 100:
		return strconv.FormatFloat(r, 'f', 1, 64) + "×"
	default:
		return thousands(int64(math.Round(r))) + "×"
	}
}

// thousands formats v with commas between groups of three digits.
func thousands(v int64) string {
	s := strconv.FormatInt(v, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// power formats n compactly: a power of ten as "10⁵", else like "5·10³" or
// "1,500".
func power(n int) string {
	if n <= 0 {
		return thousands(int64(n))
	}
	mantissa, exp := n, 0
	for mantissa%10 == 0 {
		mantissa /= 10
		exp++
	}
	if exp < 3 {
		return thousands(int64(n))
	}
	s := "10" + superscript(exp)
	if mantissa != 1 {
		s = strconv.Itoa(mantissa) + "·" + s
	}
	return s
}

func superscript(k int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	var b strings.Builder
	for _, c := range strconv.Itoa(k) {
		b.WriteString(string([]rune(digits)[c-'0']))
	}
	return b.String()
}
