package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dagq/dagq/internal/golden"
)

// small is a real run of the suite at small n: dfs, pk and gonum-offline on
// chain, chain-reverse and wide at n = 1,000, 5,000 and 10,000, and
// heimdalr and dominikbraun on a 1,000-task chain, six interleaved passes.
const small = "testdata/small.txt"

// report runs the command on the results files and returns the markdown
// and the folder of the plots.
func report(t *testing.T, files ...string) (md []byte, plots string) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "RESULTS.md")
	plots = filepath.Join(dir, "plots")
	args := append([]string{"-o", out, "-plots", plots, "-default", "pk"}, files...)
	var stdout, stderr bytes.Buffer
	if err := run(args, &stdout, &stderr); err != nil {
		t.Fatalf("run %v: %v\n%s", args, err, &stderr)
	}
	if stdout.Len() > 0 || stderr.Len() > 0 {
		t.Errorf("run %v printed\n%s%s", args, &stdout, &stderr)
	}
	md, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return md, plots
}

func TestReportMatchesGolden(t *testing.T) {
	md, _ := report(t, small)
	golden.Check(t, "testdata/small.md", md, "go test ./bench/report -update")
}

func TestReportIsDeterministic(t *testing.T) {
	md1, plots1 := report(t, small)
	md2, plots2 := report(t, small)
	if !bytes.Equal(md1, md2) {
		t.Errorf("two reports of the same file differ:\n%s", golden.FirstDifference(md1, md2))
	}
	entries, err := os.ReadDir(plots1)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		a, _ := os.ReadFile(filepath.Join(plots1, e.Name()))
		b, _ := os.ReadFile(filepath.Join(plots2, e.Name()))
		if !bytes.Equal(a, b) {
			t.Errorf("two plots %s of the same file differ", e.Name())
		}
	}
}

func TestPlotsAreSVGOnePerShapeAndUnit(t *testing.T) {
	md, plots := report(t, small)
	var want []string
	for _, b := range []string{"Lifecycle", "Submit"} {
		for _, shape := range []string{"chain", "chain-reverse", "wide"} {
			for _, unit := range []string{"ns", "visits"} {
				want = append(want, b+"-"+shape+"-"+unit+".svg")
			}
		}
	}
	slices.Sort(want)
	entries, err := os.ReadDir(plots)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		t.Fatalf("plots %v, want %v", got, want)
	}
	for _, name := range got {
		f, err := os.Open(filepath.Join(plots, name))
		if err != nil {
			t.Fatal(err)
		}
		root, texts, err := parseXML(f)
		f.Close()
		if err != nil {
			t.Errorf("%s is not XML: %v", name, err)
			continue
		}
		if root != "svg" {
			t.Errorf("%s: root element <%s>, want <svg>", name, root)
		}
		if strings.HasSuffix(name, "-ns.svg") && !slices.Contains(texts, "pk") {
			t.Errorf("%s has no legend entry for pk: texts %q", name, texts)
		}
		if !bytes.Contains(md, []byte("(plots/"+name+")")) {
			t.Errorf("the report does not link plots/%s", name)
		}
	}
}

// parseXML reads a whole XML document and returns the name of its root
// element and the text of its elements.
func parseXML(r io.Reader) (root string, texts []string, err error) {
	dec := xml.NewDecoder(r)
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if root == "" {
				return "", nil, errors.New("no element")
			}
			return root, texts, nil
		}
		if err != nil {
			return "", nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
			}
		case xml.CharData:
			if s := strings.TrimSpace(string(tok)); s != "" {
				texts = append(texts, s)
			}
		}
	}
}

func TestRunRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, []byte("goos: linux\nPASS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ops := filepath.Join(dir, "ops.txt")
	if err := os.WriteFile(ops, []byte("goos: linux\nBenchmarkOps/op=submit/n=5000-2 \t 100 \t 1000000 ns/op\nPASS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"NoFile", nil, "no results file"},
		{"OnlyOps", []string{ops}, "read the others with benchstat"},
		{"MissingFile", []string{filepath.Join(dir, "missing.txt")}, "missing.txt"},
		{"NoBenchmarks", []string{empty}, "no benchmark results"},
		{"UnknownFlag", []string{"-x", small}, "-x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(tc.args, &stdout, &stderr)
			if err == nil {
				t.Fatalf("run %v: no error", tc.args)
			}
			if !strings.Contains(err.Error()+stderr.String(), tc.want) {
				t.Errorf("run %v: %v\n%s\nwant it to mention %q", tc.args, err, &stderr, tc.want)
			}
		})
	}
}

func TestRunWritesToStdoutWithoutPlots(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-default", "pk", small}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), "# Benchmark results\n") {
		t.Errorf("stdout starts %q", stdout.String()[:min(stdout.Len(), 40)])
	}
	if strings.Contains(stdout.String(), ".svg") {
		t.Error("the report links plots it was not asked to write")
	}
}

func TestPlotsOfAnEarlierReportAreRemoved(t *testing.T) {
	dir := t.TempDir()
	plots := filepath.Join(dir, "plots")
	if err := os.MkdirAll(plots, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"Submit-random-ns.svg", "Submit-random-visits.svg", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(plots, f), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-o", filepath.Join(dir, "R.md"), "-plots", plots, small}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]bool{"Submit-random-ns.svg": false, "Submit-random-visits.svg": false, "notes.txt": true, "Submit-chain-ns.svg": true} {
		if _, err := os.Stat(filepath.Join(plots, f)); (err == nil) != want {
			t.Errorf("%s there: %v, want %v", f, err == nil, want)
		}
	}
}

// TestALifecycleWithFaultsIsLeftOut: the report is of the cycle checks;
// a lifecycle run with faults=once is benchstat's to compare, not a second
// sample of the same cell.
func TestALifecycleWithFaultsIsLeftOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "faults.txt")
	os.WriteFile(path, []byte(`pkg: github.com/dagq/dagq/bench
BenchmarkLifecycle/strategy=twoway/shape=chain/n=1000/faults=none-2 	1	4402048 ns/op	999.0 visits/op	720472 B/op	90 allocs/op
BenchmarkLifecycle/strategy=twoway/shape=chain/n=1000/faults=once-2 	1	9553814 ns/op	999.0 visits/op	720592 B/op	94 allocs/op
BenchmarkLifecycle/strategy=twoway/shape=chain/n=5000-2 	1	22000000 ns/op	4999.0 visits/op	720592 B/op	94 allocs/op
`), 0o644)
	d, err := read([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.warnings) > 0 {
		t.Errorf("warnings: %v", d.warnings)
	}
	if got := d.nsOf("Lifecycle", "chain"); !slices.Equal(got, []int{1000, 5000}) {
		t.Errorf("n measured: %v, want 1000 and 5000 (results with and without the faults key)", got)
	}
	c, ok := d.cells[cell{"Lifecycle", "chain", "twoway", 1000}]
	if !ok {
		t.Fatal("no cell for n=1000")
	}
	if got := c[unitTime].Center; got > 0.005 {
		t.Errorf("the n=1000 cell's time is %v s: the faults=once run was counted", got)
	}
}

// TestPlotsHaveErrorBars: a time plot draws the 95% interval of each median
// measured six times (small.txt) as an error bar, and none where benchmath
// has no interval (two runs): the same points, fewer paths.
func TestPlotsHaveErrorBars(t *testing.T) {
	data, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	var two bytes.Buffer
	seen := map[string]int{}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if name, _, ok := strings.Cut(line, "\t"); ok && strings.HasPrefix(line, "Benchmark") {
			if seen[name]++; seen[name] > 2 {
				continue
			}
		}
		two.WriteString(line)
	}
	twoPath := filepath.Join(t.TempDir(), "two.txt")
	if err := os.WriteFile(twoPath, two.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := func(file string) int {
		_, plots := report(t, file)
		svg, err := os.ReadFile(filepath.Join(plots, "Submit-chain-ns.svg"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(svg), "<path")
	}
	six, without := paths(small), paths(twoPath)
	// Three strategies at three n and two peers at one: 11 medians, each
	// bar a vertical line and two caps.
	if six < without+11 {
		t.Errorf("Submit-chain-ns.svg has %d paths from six runs, %d from two: want the error bars, at least 11 more", six, without)
	}
}
