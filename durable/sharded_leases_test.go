package durable_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestShardedOpensSettlesAndCloses drives what a program without a Worker
// uses of a Sharded: OpenSharded over two databases, Shards, and a lease
// renewed, completed and failed through the Sharded in its DAG's shard;
// then Close, after which the shards refuse work. An unreachable shard
// fails OpenSharded, naming it.
func TestShardedOpensSettlesAndCloses(t *testing.T) {
	t.Parallel()
	s, err := durable.OpenSharded(bg, []string{newURL(t), newURL(t)}, durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Shards()); n != 2 {
		t.Fatalf("%d shards, want 2", n)
	}
	const dag = "orders"
	q, err := s.Queue(bg, dag, core.Config{MaxAttempts: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range []string{"x", "y"} {
		if err := s.Submit(bg, durable.TaskRef{DAG: dag, Name: task}); err != nil {
			t.Fatal(err)
		}
	}
	db, err := s.DB(bg, dag)
	if err != nil {
		t.Fatal(err)
	}
	leases, err := db.NextBatch(bg, 2)
	if err != nil || len(leases) != 2 {
		t.Fatalf("NextBatch: %d leases, %v", len(leases), err)
	}
	byTask := map[string]durable.Lease{}
	for _, l := range leases {
		byTask[l.Task] = l
	}
	x, y := byTask["x"], byTask["y"]

	renewed, err := s.Heartbeat(bg, x)
	if err != nil {
		t.Fatalf("Heartbeat: %v", err)
	}
	if renewed.ID != x.ID || renewed.Deadline < x.Deadline {
		t.Errorf("Heartbeat gave %+v for %+v: another lease, or an earlier deadline", renewed, x)
	}
	if err := s.Complete(bg, renewed); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if err := s.Complete(bg, renewed); err == nil {
		t.Error("a lease completed twice was accepted")
	}
	st, err := s.Fail(bg, y, errors.New("HTTP 503"))
	if err != nil || st != core.Ready {
		t.Errorf("Fail with an attempt left: %s, %v; want READY", st, err)
	}
	for task, want := range map[string]core.State{"x": core.Succeeded, "y": core.Ready} {
		if got, _ := status(t, q, task); got != want {
			t.Errorf("%s is %s, want %s", task, got, want)
		}
	}

	s.Close()
	for i, db := range s.Shards() {
		if _, err := db.NextBatch(bg, 1); err == nil {
			t.Errorf("shard %d handed out work after Close", i)
		}
	}

	if _, err := durable.OpenSharded(bg, []string{newURL(t), "postgres://nobody@127.0.0.1:1/none?connect_timeout=5"}, durable.Options{}); err == nil || !strings.Contains(err.Error(), "durable: shard 1:") {
		t.Errorf("OpenSharded with an unreachable second shard: %v, want an error naming shard 1", err)
	}
}
