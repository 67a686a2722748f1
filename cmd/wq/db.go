package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/incremental"
)

// migrateCmd is "wq migrate URL": bring a database's schema up to date.
func migrateCmd(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return usageError{fmt.Errorf("migrate takes one database URL (got %d arguments)", len(args))}
	}
	applied, err := durable.MigrateURL(context.Background(), args[0])
	if err != nil {
		return err
	}
	all := durable.Migrations()
	if len(applied) == 0 {
		fmt.Fprintf(stdout, "up to date: schema version %d\n", all[len(all)-1].Version)
		return nil
	}
	for _, m := range all {
		for _, v := range applied {
			if v == m.Version {
				fmt.Fprintf(stdout, "applied %04d_%s\n", m.Version, m.Name)
			}
		}
	}
	return nil
}

// dbQueue is a DAG of a durable database as the scenario runner drives it:
// scenario.Queue's methods, whose reads return no error, over
// durable.Queue's, which take a context and do. It reports the strategy the
// in-memory run would use, so that the two traces agree to the byte; the
// durable queue's own check is Pearce–Kelly's in every case. It keeps no
// context: each call is made with context.Background(), as the run itself
// is. A read that fails answers as nothing was there, and its error is kept
// in *failed, the first one only, for the command to report when the run
// ends: a trace built on a read that failed is never taken for a good one.
type dbQueue struct {
	q        *durable.Queue
	strategy string
	failed   *error
}

var _ scenario.BulkQueue = dbQueue{}

// read keeps err, the first one, and reports whether there was none.
func (d dbQueue) read(err error) bool {
	if err != nil && *d.failed == nil {
		*d.failed = err
	}
	return err == nil
}

func (d dbQueue) Submit(task string, deps ...string) error {
	return d.q.Submit(context.Background(), task, deps...)
}
func (d dbQueue) Next() (core.Lease, bool) {
	l, ok, err := d.q.Next(context.Background())
	return l, d.read(err) && ok
}
func (d dbQueue) Heartbeat(l core.Lease) (core.Lease, error) {
	return d.q.Heartbeat(context.Background(), l)
}
func (d dbQueue) Complete(l core.Lease) error { return d.q.Complete(context.Background(), l) }
func (d dbQueue) Fail(l core.Lease, err error) (core.State, error) {
	return d.q.Fail(context.Background(), l, err)
}
func (d dbQueue) Redrive(task string) error      { return d.q.Redrive(context.Background(), task) }
func (d dbQueue) ForceRedrive(task string) error { return d.q.ForceRedrive(context.Background(), task) }
func (d dbQueue) Advance(dur time.Duration) error {
	return d.q.Advance(context.Background(), dur)
}
func (d dbQueue) Now() time.Duration {
	n, err := d.q.Now(context.Background())
	d.read(err)
	return n
}
func (d dbQueue) Status(task string) (core.State, bool) {
	s, ok, err := d.q.Status(context.Background(), task)
	return s, d.read(err) && ok
}
func (d dbQueue) Lease(task string) (core.Lease, bool) {
	l, ok, err := d.q.Lease(context.Background(), task)
	return l, d.read(err) && ok
}

// Config has what the language reads of a queue's configuration: the DAG's
// max attempts, and the strategy of the in-memory run.
func (d dbQueue) Config() core.Config {
	n, err := d.q.MaxAttempts(context.Background())
	d.read(err)
	return core.Config{MaxAttempts: n, Strategy: d.strategy}
}
func (d dbQueue) Len() int {
	n, err := d.q.Len(context.Background())
	d.read(err)
	return n
}
func (d dbQueue) DeadLetterGroups() []core.DeadLetterGroup {
	g, err := d.q.DeadLetterGroups(context.Background())
	d.read(err)
	return g
}
func (d dbQueue) RedriveMatching(sel core.Selector, rate core.Rate) (core.RedriveJob, error) {
	return d.q.RedriveMatching(context.Background(), sel, rate)
}
func (d dbQueue) PreviewRedrive(sel core.Selector) core.RedrivePreview {
	p, err := d.q.PreviewRedrive(context.Background(), sel)
	d.read(err)
	return p
}
func (d dbQueue) CancelRedrive() error { return d.q.CancelRedrive(context.Background()) }

// openDB opens the database at url for a run on the DAG dag ("" for a
// fresh one) and returns the scenario option that makes its queue; a
// function that closes it and returns the first read that failed during
// the run, if any. A DAG that exists already is refused before anything is
// written: a script's header must not change a DAG's stored settings.
func openDB(ctx context.Context, url, dag string) (func(core.Config) (scenario.Queue, error), func() error, error) {
	db, err := durable.Open(ctx, url, durable.Options{VirtualClock: true})
	if err != nil {
		return nil, nil, err
	}
	if dag == "" {
		var b [6]byte
		rand.Read(b[:])
		dag = "wq-run-" + hex.EncodeToString(b[:])
	}
	var failed error
	open := func(cfg core.Config) (scenario.Queue, error) {
		exists, err := db.HasDAG(ctx, dag)
		if err != nil {
			return nil, err
		}
		if exists {
			return nil, errors.New("the DAG " + dag + " already exists: name a new one with --dag")
		}
		q, err := db.Queue(ctx, dag, cfg)
		if err != nil {
			return nil, err
		}
		name := cfg.Strategy
		if name == "" {
			name = incremental.Default
		}
		return dbQueue{q: q, strategy: name, failed: &failed}, nil
	}
	return open, func() error { db.Close(); return failed }, nil
}
