package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/golden"
	"github.com/dagq/dagq/internal/pgtest"
)

// ages are the durations of wq db dags, which the clock decides: the
// golden files have them as "T".
var ages = regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|ms|s|m|h)\b`)

// TestDBGolden runs wq db's subcommands, in order, against a database with
// an ETL DAG in which two downloads died (one of them blocking its
// transform and the report) and a name is awaited that never came, and
// compares what each says with a golden file: the URL reads URL, and ages
// T.
func TestDBGolden(t *testing.T) {
	url := pgtest.New(t)
	ctx := context.Background()
	db, err := durable.Open(ctx, url, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q, err := db.Queue(ctx, "etl", core.Config{MaxAttempts: 1, Alert: core.Alert{Entries: 2, Window: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	tasks := []durable.NewTask{{Name: "download-1"}, {Name: "download-2"}, {Name: "download-3"},
		{Name: "transform-1", Deps: []string{"download-1"}}, {Name: "transform-2", Deps: []string{"download-2"}},
		{Name: "report", Deps: []string{"transform-1", "transform-2", "calendar"}}}
	if err := q.SubmitAll(ctx, tasks); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		l, ok, err := q.Next(ctx)
		if err != nil || !ok {
			t.Fatalf("Next: %v %v", ok, err)
		}
		switch l.Task {
		case "download-3":
			err = q.Complete(ctx, l)
		default:
			_, err = q.Fail(ctx, l, errors.New("HTTP 503 from "+l.Task+".example.com"))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Queue(ctx, "empty", core.Config{MaxAttempts: 1}); err != nil {
		t.Fatal(err)
	}
	for i, args := range [][]string{
		{"db", "dags", url},
		{"db", "show", url, "etl"},
		{"db", "dlq", url, "etl"},
		{"db", "redrive", url, "etl", "--group", "1", "--preview"},
		{"db", "redrive", url, "etl", "--match", "HTTP 503", "--rate", "1/1h"},
		{"db", "redrive", url, "etl", "--cancel"},
		{"db", "redrive", url, "etl", "--cancel"},
		{"db", "redrive", url, "etl", "--match", "download-2"},
		{"db", "show", url, "etl"},
		{"db", "redrive", url, "etl", "--rate", "fast", "--match", "x"},
		{"db", "show", url, "nope"},
		{"db", "delete", url, "empty"},
		{"db", "dags", url},
		{"db", "frobnicate", url},
		{"db", "dags"},
	} {
		name := fmt.Sprintf("db-%02d-%s", i+1, args[1])
		t.Run(name, func(t *testing.T) {
			var stdout bytes.Buffer
			err := run(args, &stdout, &stdout)
			var got bytes.Buffer
			got.WriteString("$ wq " + strings.ReplaceAll(strings.Join(args, " "), url, "URL") + "\n")
			out := stdout.String()
			if args[1] == "dags" {
				out = ages.ReplaceAllString(out, "T")
			}
			got.WriteString(out)
			if err != nil {
				got.WriteString("--- wq: " + err.Error() + "\n")
			}
			fmt.Fprintf(&got, "--- exit %d\n", exitCode(err))
			golden.Check(t, filepath.Join("testdata", "golden", name+".txt"), got.Bytes(), "go test ./cmd/wq -run TestDBGolden -update")
		})
	}
}

// TestDBMoveAndMetricsGolden runs wq db move on a sharded queue of two
// databases: a move, a move to where the DAG is, a move that first
// repairs a stale copy (what a move that died after switching the
// placement leaves), one that first resumes a DAG left paused, then bad
// arguments; and wq db metrics. Each output is
// compared with a golden file: the URLs read URL0 and URL1.
func TestDBMoveAndMetricsGolden(t *testing.T) {
	ctx := context.Background()
	urls := []string{pgtest.New(t), pgtest.New(t)}
	s, err := durable.OpenSharded(ctx, urls, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q, err := s.Queue(ctx, "etl", core.Config{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.SubmitAll(ctx, []durable.NewTask{{Name: "download"}, {Name: "transform", Deps: []string{"download"}}}); err != nil {
		t.Fatal(err)
	}
	if home, err := s.Locate(ctx, "etl"); err != nil {
		t.Fatal(err)
	} else if home != 0 {
		if err := s.Move(ctx, "etl", 0); err != nil {
			t.Fatal(err)
		}
	}
	// A stale copy in shard 0 once the DAG lives in shard 1: a DAG of the
	// same name made in that database alone, with a task of its own.
	stale := func() {
		db, err := durable.Open(ctx, urls[0], durable.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		q, err := db.Queue(ctx, "etl", core.Config{MaxAttempts: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := q.Submit(ctx, "stale"); err != nil {
			t.Fatal(err)
		}
	}
	// A pause in shard 0, what a move that died while it waited for the
	// DAG's RUNNING tasks leaves.
	paused := func() {
		if _, err := s.Shards()[0].Pool().Exec(ctx, "UPDATE dagq_dags SET paused = true WHERE dag = 'etl'"); err != nil {
			t.Fatal(err)
		}
	}
	u0, u1 := urls[0], urls[1]
	for i, step := range []struct {
		args   []string
		before func()
	}{
		{args: []string{"db", "move", u0, u1, "etl", "--to", "1"}},
		{args: []string{"db", "move", u0, u1, "etl", "--to", "1"}},
		{args: []string{"db", "dags", u0}, before: stale},
		{args: []string{"db", "move", u0, u1, "etl", "--to", "0"}},
		{args: []string{"db", "move", u0, u1, "etl", "--to", "1"}, before: paused},
		{args: []string{"db", "show", u1, "etl"}},
		{args: []string{"db", "dags", u0}},
		{args: []string{"db", "move", u0, u1, "etl", "--to", "2"}},
		{args: []string{"db", "move", u0, u1, "etl"}},
		{args: []string{"db", "move", u0, "etl", "--to", "0"}},
		{args: []string{"db", "move", u0, u1, "nope", "--to", "1"}},
		{args: []string{"db", "show", u0, "etl", "--to", "1"}},
		{args: []string{"db", "metrics", u1}},
		{args: []string{"db", "metrics", u0}},
		{args: []string{"db", "metrics"}},
	} {
		name := fmt.Sprintf("dbmove-%02d-%s", i+1, step.args[1])
		t.Run(name, func(t *testing.T) {
			if step.before != nil {
				step.before()
			}
			var stdout bytes.Buffer
			err := run(step.args, &stdout, &stdout)
			var got bytes.Buffer
			line := strings.Join(step.args, " ")
			line = strings.ReplaceAll(strings.ReplaceAll(line, u0, "URL0"), u1, "URL1")
			got.WriteString("$ wq " + line + "\n")
			out := stdout.String()
			if step.args[1] == "dags" {
				out = ages.ReplaceAllString(out, "T")
			}
			got.WriteString(out)
			if err != nil {
				got.WriteString("--- wq: " + err.Error() + "\n")
			}
			fmt.Fprintf(&got, "--- exit %d\n", exitCode(err))
			golden.Check(t, filepath.Join("testdata", "golden", name+".txt"), got.Bytes(), "go test ./cmd/wq -run TestDBMoveAndMetricsGolden -update")
		})
	}
}
