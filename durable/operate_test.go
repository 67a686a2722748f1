package durable_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// outage makes six fetches die of HTTP 503, each blocking a render, on
// the pair: twelve entries into the DLQ at 0s.
func outage(p *pair) {
	for i := range 6 {
		p.submit(fmt.Sprintf("fetch-%d", i))
		p.submit(fmt.Sprintf("render-%d", i), fmt.Sprintf("fetch-%d", i))
	}
	for range 6 {
		p.next()
	}
	for i := range 6 {
		l := p.leases[fmt.Sprintf("fetch-%d@1", i)]
		p.fail2(l, errors.New("HTTP 503"))
	}
}

// TestRedriveAtARateGoesOnAfterARestart: a redrive at a rate and the growth
// alert are kept in the database. Started by one process, the redrive goes
// on, batch by batch as the clock advances, in another that opened the
// database afresh, and the alert clears there at its time, as in memory.
func TestRedriveAtARateGoesOnAfterARestart(t *testing.T) {
	ctx := context.Background()
	url := newURL(t)
	first, err := durable.Open(ctx, url, durable.Options{VirtualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := core.Config{MaxAttempts: 1, Alert: core.Alert{Entries: 4, Window: 25 * time.Second}}
	p := newPair(t, first, cfg)
	outage(p)
	if !alerting(t, p.dur) {
		t.Fatal("twelve entries at once did not raise an alert of 4 within 25s")
	}
	p.advance(5 * time.Second)
	p.bulk("503", core.Rate{N: 2, Per: 10 * time.Second})
	if j, ok := redriving(t, p.dur); !ok || j.Done != 2 || j.Next != 15*time.Second {
		t.Fatalf("after the first batch the redrive is %+v, %v; want 2 done, the next at 15s", j, ok)
	}
	dag := p.dur.DAG()
	first.Close()

	second, err := durable.Open(ctx, url, durable.Options{VirtualClock: true})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	dc := cfg
	dc.OnEvent = func(e core.Event) { p.durEv = append(p.durEv, e) }
	p.dur, err = second.Queue(ctx, dag, dc)
	if err != nil {
		t.Fatal(err)
	}
	p.db = second
	p.compare("restart")
	p.advance(12 * time.Second) // the second batch at 15s
	if j, _ := redriving(t, p.dur); j.Done != 4 {
		t.Fatalf("after 17s the redrive has done %d, want 4", j.Done)
	}
	p.advance(20 * time.Second) // the alert clears at 25s, the last batch at 25s, before it: set first
	if _, ok := redriving(t, p.dur); ok {
		t.Fatal("the redrive is still in progress after its last batch")
	}
	if alerting(t, p.dur) {
		t.Fatal("the alert is still on 25s after its last entry")
	}
	if p.kinds[core.EventCleared] != 1 || p.kinds[core.EventRedriveProgress] != 3 || p.kinds[core.EventRedriveDone] != 1 {
		t.Fatalf("events by kind %v: want one clear, three batches, one done", p.kinds)
	}
}

// TestCancelRedriveIsDurable: a cancel commits; the tasks redriven stay
// redriven, the rest stay DEAD, and nothing more is redriven however far
// the clock goes, nor can it be cancelled twice.
func TestCancelRedriveIsDurable(t *testing.T) {
	p := newPair(t, openDB(t, durable.Options{VirtualClock: true}), core.Config{MaxAttempts: 1})
	outage(p)
	p.bulk("HTTP", core.Rate{N: 1, Per: time.Second})
	p.do("redrive again", func() error { _, err := p.mem.RedriveMatching(core.Selector{Contains: "x"}, core.Rate{}); return err },
		func() error {
			_, err := p.dur.RedriveMatching(bg, core.Selector{Contains: "x"}, core.Rate{})
			return err
		})
	p.advance(time.Second)
	p.cancel()
	p.reopen()
	p.advance(time.Minute)
	p.cancel()
	if got := p.kinds[core.EventRedriven]; got != 2 {
		t.Fatalf("%d tasks redriven, want 2", got)
	}
	if got := len(deadLetters(t, p.dur)); got != 8 {
		t.Fatalf("%d dead letters, want 4 fetches and their 4 renders", got)
	}
}

// TestTickRunsTheDAGsOwnTimers: on a Clock, DB.Tick fires a redrive's
// batches and the alert's clear when their time has passed, each at its
// own time, with the events the virtual clock's Advance would emit.
func TestTickRunsTheDAGsOwnTimers(t *testing.T) {
	var mu sync.Mutex
	now := time.Duration(0)
	clock := func() time.Duration { mu.Lock(); defer mu.Unlock(); return now }
	set := func(d time.Duration) { mu.Lock(); now = d; mu.Unlock() }
	var got []core.Event
	db := openDB(t, durable.Options{Clock: clock, OnEvent: func(_ string, e core.Event) {
		mu.Lock()
		got = append(got, e)
		mu.Unlock()
	}})
	var qev []core.Event
	q := openQueue(t, db, core.Config{MaxAttempts: 1, Alert: core.Alert{Entries: 2, Window: 10 * time.Second},
		OnEvent: func(e core.Event) { qev = append(qev, e) }})
	for _, task := range []string{"a", "b", "c"} {
		if err := q.Submit(bg, task); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		l, ok := next(t, q)
		if !ok {
			t.Fatal("nothing READY")
		}
		if _, err := q.Fail(bg, l, errors.New("HTTP 503")); err != nil {
			t.Fatal(err)
		}
	}
	if !alerting(t, q) {
		t.Fatal("three deaths at once did not raise an alert of 2 within 10s")
	}
	if _, err := q.RedriveMatching(bg, core.Selector{Contains: "503"}, core.Rate{N: 1, Per: 3 * time.Second}); err != nil {
		t.Fatal(err)
	}
	// The first batch ran at once, at 0s; the others are due at 3s and 6s,
	// the clear at 10s.
	set(4 * time.Second)
	if _, err := db.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	set(11 * time.Second)
	if _, err := db.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	var fired []string
	for _, e := range got {
		fired = append(fired, fmt.Sprintf("%v %s", e.At, e.Kind))
	}
	want := []string{"3s redriven", "3s redrive-progress", "6s redriven", "6s redrive-progress",
		"6s redrive-done", "10s cleared"}
	if fmt.Sprint(fired) != fmt.Sprint(want) {
		t.Fatalf("Tick fired\n  %v\nwant\n  %v", fired, want)
	}
	if _, ok := redriving(t, q); ok || alerting(t, q) {
		t.Fatal("the redrive or the alert outlived its timers")
	}
}
