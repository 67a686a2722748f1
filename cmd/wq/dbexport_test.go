package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/golden"
	"github.com/dagq/dagq/internal/pgtest"
)

// incident makes, on the database's clock as an operator's queue runs,
// a DAG in the middle of an outage: two downloads that died of HTTP 503
// (blocking their transforms and the report), one that succeeded, a task
// waiting out its backoff, one held by a worker, a name awaited that never
// came.
func incident(t *testing.T, url string) *durable.Queue {
	t.Helper()
	ctx := context.Background()
	db, err := durable.Open(ctx, url, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	q, err := db.Queue(ctx, "incident", core.Config{MaxAttempts: 2,
		Backoff: core.Backoff{Base: time.Hour, Factor: 2, Max: 4 * time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	tasks := []durable.NewTask{{Name: "download-1"}, {Name: "download-2"}, {Name: "download-3"},
		{Name: "transform-1", Deps: []string{"download-1"}}, {Name: "transform-2", Deps: []string{"download-2"}},
		{Name: "report", Deps: []string{"transform-1", "transform-2", "calendar"}},
		{Name: "thumbnails"}, {Name: "index"}, {Name: "mail"}}
	if err := q.SubmitAll(ctx, tasks); err != nil {
		t.Fatal(err)
	}
	// settle hands out the front task, which must be want, and settles it
	// with err (nil: complete; "hold": keep the lease).
	settle := func(want string, err error) {
		t.Helper()
		l, ok, nerr := q.Next(ctx)
		if nerr != nil || !ok || l.Task != want {
			t.Fatalf("Next: %q %v %v; want %s", l.Task, ok, nerr, want)
		}
		switch {
		case err == nil:
			err = q.Complete(ctx, l)
		case err.Error() == "hold":
			return
		default:
			_, err = q.Fail(ctx, l, err)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	settle("download-1", core.Permanent(errors.New("HTTP 503 from download-1.example.com")))
	settle("download-2", core.Permanent(errors.New("HTTP 503 from download-2.example.com")))
	settle("download-3", nil)
	settle("thumbnails", errors.New("out of memory")) // DELAYED for an hour
	settle("index", errors.New("hold"))               // RUNNING
	settle("mail", nil)
	return q
}

// TestDBExportGolden exports the incident with wq db export, to stdout and
// to a file, and compares the script with a golden file; then runs it with
// wq run --json and holds the states and the dead-letter queue of its last
// line to the database's. An export of no DAG, or without its DAG, is an
// error that leaves the file named by -o alone.
func TestDBExportGolden(t *testing.T) {
	url := pgtest.New(t)
	q := incident(t, url)
	var stdout, stderr bytes.Buffer
	if err := run([]string{"db", "export", url, "incident"}, &stdout, &stderr); err != nil {
		t.Fatalf("wq db export: %v\n%s", err, stderr.String())
	}
	script := stdout.String()
	golden.Check(t, filepath.Join("testdata", "golden", "db-export.dagq"), stdout.Bytes(), "go test ./cmd/wq -run TestDBExportGolden -update")

	dir := t.TempDir()
	file := filepath.Join(dir, "incident.dagq")
	if err := os.WriteFile(file, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	if err := run([]string{"db", "export", url, "incident", "-o", file}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); string(b) != script || stdout.Len() != 0 {
		t.Errorf("-o wrote %q and printed %q; want the script, and nothing printed", b, stdout.String())
	}
	for _, args := range [][]string{
		{"db", "export", url, "nope", "-o", file},
		{"db", "export", url, "-o", file},
		{"db", "dags", url, "-o", file},
	} {
		err := run(args, &stdout, &stderr)
		if err == nil {
			t.Errorf("wq %s: no error", strings.Join(args, " "))
		}
		if b, _ := os.ReadFile(file); string(b) != script {
			t.Errorf("wq %s changed the file to %q", strings.Join(args, " "), b)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory holds %d files, want the one written", len(entries))
	}

	// The round trip: wq run of the script stands where the database does.
	stdout.Reset()
	if err := run([]string{"run", "--json", file}, &stdout, &stderr); err != nil {
		t.Fatalf("wq run: %v\n%s", err, stderr.String())
	}
	var last struct {
		States map[string]core.State `json:"states"`
		DLQ    []struct{ Task, Reason string }
	}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		last.States, last.DLQ = nil, nil
		if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	states, err := q.States(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(states) != len(last.States) {
		t.Errorf("wq run has %d tasks, the database %d", len(last.States), len(states))
	}
	for task, st := range states {
		if last.States[task] != st {
			t.Errorf("%s: %s after wq run, %s in the database", task, last.States[task], st)
		}
	}
	dl, err := q.DeadLetters(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, d := range dl {
		want = append(want, d.Task+": "+d.Reason)
	}
	for _, d := range last.DLQ {
		got = append(got, d.Task+": "+d.Reason)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the dead-letter queue after wq run:\n%s\nin the database:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// stamps are the times wq db task prints, and lease ids: the golden file
// has them as TIME and N.
var (
	stamps   = regexp.MustCompile(`\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}`)
	leaseIDs = regexp.MustCompile(`lease \d+,`)
)

// TestDBTaskGolden prints, with wq db task, the detail of the incident's
// tasks in each state — a permanent death, one blocked downstream waiting
// on a name never submitted, one in its backoff after a failure, one held
// — and refuses a name only awaited and a DAG that does not exist: the
// output is compared with a golden file, times read TIME, this process
// (the holder of the leases it took) HOLDER.
func TestDBTaskGolden(t *testing.T) {
	url := pgtest.New(t)
	incident(t, url)
	host, _ := os.Hostname()
	holder := host + ":" + strconv.Itoa(os.Getpid())
	var got bytes.Buffer
	for _, args := range [][]string{
		{"db", "task", url, "incident", "download-1"},
		{"db", "task", url, "incident", "report"},
		{"db", "task", url, "incident", "thumbnails"},
		{"db", "task", url, "incident", "index"},
		{"db", "task", url, "incident", "download-3"},
		{"db", "task", url, "incident", "calendar"},
		{"db", "task", url, "nope", "x"},
		{"db", "task", url, "incident"},
	} {
		var out bytes.Buffer
		err := run(args, &out, &out)
		got.WriteString("$ wq " + strings.ReplaceAll(strings.Join(args, " "), url, "URL") + "\n")
		text := stamps.ReplaceAllString(out.String(), "TIME")
		text = leaseIDs.ReplaceAllString(text, "lease N,")
		got.WriteString(strings.ReplaceAll(text, holder, "HOLDER"))
		if err != nil {
			got.WriteString("--- wq: " + err.Error() + "\n")
		}
		fmt.Fprintf(&got, "--- exit %d\n", exitCode(err))
	}
	golden.Check(t, filepath.Join("testdata", "golden", "db-task.txt"), got.Bytes(), "go test ./cmd/wq -run TestDBTaskGolden -update")
}
