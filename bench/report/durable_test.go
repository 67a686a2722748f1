package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
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
	for _, want := range []string{"## Durable", "### Durable · independent · fsync off", "### Durable · random · fsync off", "### Durable goals", "dagq ≥ River, independent"} {
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

// durableFsyncRuns is a -short run of BenchmarkDurable with its fsync level
// and River both tuned and at its defaults.
const durableFsyncRuns = "testdata/durable-fsync.txt"

// TestDurableFsyncAndRiverDefaults: a run with both fsync settings and both
// River configurations gets a table per shape and setting, fsync on first,
// and goals against each River, including the hand-out latency's.
func TestDurableFsyncAndRiverDefaults(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run([]string{durableFsyncRuns}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, &stderr)
	}
	md := stdout.String()
	golden.Check(t, "testdata/durable-fsync.md", stdout.Bytes(), "go test ./bench/report -update")
	order := []string{"### Durable · independent · fsync on", "### Durable · independent · fsync off",
		"### Durable · random · fsync on", "### Durable · random · fsync off", "### Durable goals"}
	last := -1
	for _, want := range order {
		i := strings.Index(md, want)
		if i < 0 {
			t.Fatalf("the report lacks %q:\n%s", want, md)
		}
		if i < last {
			t.Errorf("%q is out of order", want)
		}
		last = i
	}
	for _, want := range []string{
		"| dagq ≥ River, independent | on | 1 |",
		"| dagq ≥ River at its defaults, independent | off | 2,000 |",
		"| random ≥ 0.5× independent | on | 100 |",
		"| p50 hand-out ≤ River's | off | 16 |",
		"| p50 hand-out ≤ River's at its defaults | on | 4 |",
		"| 1 | river-defaults | 7.21 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

// durableEnqueueRuns is a real run of BenchmarkDurable's fsync-on level at
// four workers and of BenchmarkDurableEnqueue, three passes each.
const durableEnqueueRuns = "testdata/durable-enqueue.txt"

// TestDurableEnqueue: the enqueue's results get a table of their own, each
// dagq cell beside River's on the same statistics, and a goal row a
// statistics setting, judged against 20,000 tasks/s; they stay out of the
// burn-down tables.
func TestDurableEnqueue(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run([]string{durableEnqueueRuns}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, &stderr)
	}
	golden.Check(t, "testdata/durable-enqueue.md", stdout.Bytes(), "go test ./bench/report -update")
	md := stdout.String()
	for _, want := range []string{
		"### Durable · enqueue",
		"| dagq | random | fresh |",
		"| river | independent | analyzed |",
		"| enqueue ≥ 20,000 tasks/s, random, fresh | off | — |",
		"| enqueue ≥ 20,000 tasks/s, random, analyzed | off | — |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "### Durable · random") || strings.Contains(md, "stats=") {
		t.Errorf("an enqueue result leaked into the burn-down tables:\n%s", md)
	}
}

// TestDurableEnqueueGoalIsJudged: the goal's verdict follows the median,
// met at 20,000 tasks/s and not below.
func TestDurableEnqueueGoalIsJudged(t *testing.T) {
	for _, tt := range []struct {
		rates   []string
		verdict string
	}{
		{[]string{"19000", "19999", "25000"}, "not met"},
		{[]string{"20000", "20000", "1000"}, "met"},
	} {
		var file strings.Builder
		for _, r := range tt.rates {
			fmt.Fprintf(&file, "BenchmarkDurableEnqueue/impl=dagq/shape=random/stats=fresh-2 1 500000000 ns/op %s tasks/s\n", r)
		}
		path := filepath.Join(t.TempDir(), "enqueue.txt")
		if err := os.WriteFile(path, []byte(file.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		if err := run([]string{path}, &stdout, &stderr); err != nil {
			t.Fatalf("%v\n%s", err, &stderr)
		}
		want := "| enqueue ≥ 20,000 tasks/s, random, fresh | off | — |"
		var row string
		for _, l := range strings.Split(stdout.String(), "\n") {
			if strings.HasPrefix(l, want) {
				row = l
			}
		}
		if !strings.HasSuffix(row, "| "+tt.verdict+" |") {
			t.Errorf("rates %v: goal row %q, want the verdict %q", tt.rates, row, tt.verdict)
		}
	}
}
