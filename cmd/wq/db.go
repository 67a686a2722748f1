package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

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

// dbQueue is a DAG of a durable database as the scenario runner drives it.
// It reports the strategy the in-memory run would use, so that the two
// traces agree to the byte; the durable queue's own check is Pearce–Kelly's
// in every case.
type dbQueue struct {
	*durable.Queue
	strategy string
}

func (q dbQueue) Strategy() string { return q.strategy }

// openDB opens the database at url for a run on the DAG dag ("" for a
// fresh one) and returns the scenario option that makes its queue, and a
// function that closes it.
func openDB(ctx context.Context, url, dag string) (func(core.Config) (scenario.Queue, error), func(), error) {
	db, err := durable.Open(ctx, url, durable.Options{VirtualClock: true})
	if err != nil {
		return nil, nil, err
	}
	if dag == "" {
		var b [6]byte
		rand.Read(b[:])
		dag = "wq-run-" + hex.EncodeToString(b[:])
	}
	open := func(cfg core.Config) (scenario.Queue, error) {
		q, err := db.Queue(ctx, dag, cfg)
		if err != nil {
			return nil, err
		}
		if q.Len() > 0 {
			return nil, errors.New("the DAG " + dag + " already has tasks: name a new one with --dag")
		}
		name := cfg.Strategy
		if name == "" {
			name = incremental.Default
		}
		return dbQueue{q, name}, nil
	}
	return open, db.Close, nil
}
