package main

import (
	"context"
	"fmt"
	"io"

	"github.com/dagq/dagq/durable"
)

// moveCmd is "wq db move URL... DAG --to N": it repairs what a move of the
// DAG that died half way left, then moves it to the shard of the Nth URL.
func moveCmd(ctx context.Context, urls []string, dag string, to int, w io.Writer) error {
	if to < 0 || to >= len(urls) {
		return usageError{fmt.Errorf("--to %d: there are %d URLs, numbered from 0", to, len(urls))}
	}
	s, err := durable.OpenSharded(ctx, urls, durable.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	r, err := s.Repair(ctx, dag)
	if err != nil {
		return err
	}
	if r.Resumed {
		fmt.Fprintf(w, "repaired %s: resumed its hand-outs, paused by a move that did not finish\n", dag)
	}
	for _, k := range r.Deleted {
		fmt.Fprintf(w, "repaired %s: deleted its stale copy in shard %d, left by a move that died half way\n", dag, k)
	}
	from, err := s.Locate(ctx, dag)
	if err != nil {
		return err
	}
	if from == to {
		fmt.Fprintf(w, "%s is in shard %d already: nothing to move\n", dag, to)
		return nil
	}
	if err := s.Move(ctx, dag, to); err != nil {
		return err
	}
	fmt.Fprintf(w, "moved %s from shard %d to shard %d\n", dag, from, to)
	return nil
}
