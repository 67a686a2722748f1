package main

import (
	"flag"

	"github.com/dagq/dagq/core/scenario"
)

// limitFlags adds the flags that set a run's limits to fs, with def as
// their defaults (0: none), and returns the limits they fill in.
func limitFlags(fs *flag.FlagSet, def scenario.Limits) *scenario.Limits {
	lim := def
	fs.IntVar(&lim.Tasks, "max-tasks", def.Tasks, "most tasks a run may submit (0: no limit)")
	fs.IntVar(&lim.Steps, "max-steps", def.Steps, "most commands a run may run (0: no limit)")
	fs.IntVar(&lim.Events, "max-events", def.Events, "most events a run may cause (0: no limit)")
	fs.Int64Var(&lim.Output, "max-output", def.Output, "most bytes of trace a run may write (0: no limit)")
	return &lim
}
