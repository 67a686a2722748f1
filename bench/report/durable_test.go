package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dagq/dagq/internal/golden"
)

// durableRuns is a real run of BenchmarkDurable at 10⁴ tasks: dagq and
// River, six interleaved passes (bench/results/durable/2026-12-01.txt).
const durableRuns = "testdata/durable.txt"

// TestDurableSectionMatchesGolden reports the cycle-check file and the
// durable one together: the durable results get their own section and
// goals, and the cycle-check tables do not see them.
func TestDurableSectionMatchesGolden(t *testing.T) {
	md, _ := report(t, small, durableRuns)
	golden.Check(t, "testdata/small-durable.md", md, "go test ./bench/report -update")
	for _, want := range []string{"## Durable", "### Durable · independent", "### Durable · random", "### Durable goals", "dagq ≥ River, independent"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if bytes.Contains(md, []byte("impl=")) {
		t.Error("a durable result leaked into the cycle-check tables or the warnings")
	}
}

// TestDurableAloneIsAReport: a file of BenchmarkDurable only is enough.
func TestDurableAloneIsAReport(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run([]string{durableRuns}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, &stderr)
	}
	if !strings.Contains(stdout.String(), "## Durable") {
		t.Errorf("no durable section:\n%s", &stdout)
	}
}
