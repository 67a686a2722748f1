package main

import "testing"

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{sig(0), "0"},
		{sig(1234), "1234"},
		{sig(999.6), "1000"},
		{sig(12.34), "12.3"},
		{sig(9.996), "10.0"},
		{sig(0.0001234), "0.000123"},
		{sig(0.0009996), "0.00100"},
		{sig(-1.5), "-1.50"},
		{seconds(0), "0"},
		{seconds(850e-9), "850 ns"},
		{seconds(1.5e-6), "1.50 µs"},
		{seconds(0.25), "250 ms"},
		{seconds(42), "42.0 s"},
		{count(0), "0"},
		{count(999), "999"},
		{count(499500), "499,500"},
		{count(12497500), "12.5 M"},
		{count(2.5e9), "2.50 G"},
		{count(27.5), "27.5"},
		{byteSize(640), "640 B"},
		{byteSize(640856), "626 KiB"},
		{byteSize(960561936), "916 MiB"},
		{ratio(0.4123), "0.41×"},
		{ratio(12.34), "12.3×"},
		{ratio(10234.5), "10,235×"},
		{thousands(-1234567), "-1,234,567"},
		{thousands(100), "100"},
		{power(1_000), "10³"},
		{power(5_000), "5·10³"},
		{power(1_000_000), "10⁶"},
		{power(10), "10"},
		{power(100), "100"},
		{power(1_500), "1,500"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
