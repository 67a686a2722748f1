package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/dagq/dagq/core/scenario"
)

// limitFlags adds the flags that set a run's limits to fs, with def as
// their defaults (0: none), and returns the limits they fill in. Once fs
// is parsed, checkLimits refuses negative ones.
func limitFlags(fs *flag.FlagSet, def scenario.Limits) *scenario.Limits {
	lim := def
	fs.IntVar(&lim.Tasks, "max-tasks", def.Tasks, "most tasks a run may submit (0: no limit)")
	fs.IntVar(&lim.Steps, "max-steps", def.Steps, "most commands a run may run (0: no limit)")
	fs.IntVar(&lim.Events, "max-events", def.Events, "most events a run may cause (0: no limit)")
	fs.Int64Var(&lim.Output, "max-output", def.Output, "most bytes of trace a run may write (0: no limit)")
	return &lim
}

// checkLimits refuses a negative limit as a usage error: -1 must not
// silently mean no limit.
func checkLimits(lim *scenario.Limits) error {
	for _, l := range []struct {
		flag string
		v    int64
	}{
		{"max-tasks", int64(lim.Tasks)}, {"max-steps", int64(lim.Steps)},
		{"max-events", int64(lim.Events)}, {"max-output", lim.Output},
	} {
		if l.v < 0 {
			return usageError{fmt.Errorf("--%s %d is negative: give a number of at least 1, or 0 for no limit", l.flag, l.v)}
		}
	}
	return nil
}

// maxBytes is how much of a script wq run and wq svg read by default, from
// a file or standard input (--max-bytes): with runLimits it keeps wq run
// under 512 MB whatever the script does.
const maxBytes = 64 << 20

// sizeError is a script longer than --max-bytes: a limit, exit status 5.
type sizeError struct {
	name string // the file, or - for standard input
	max  int64
}

func (e sizeError) Error() string {
	return fmt.Sprintf("%s: the script is longer than --max-bytes %d bytes (raise it, or split the script)", e.name, e.max)
}

// errScriptSize identifies a sizeError.
var errScriptSize = errors.New("script too long")

func (e sizeError) Is(target error) bool { return target == errScriptSize }

// softMemory is the heap wq run and wq svg ask Go's collector to stay
// under, unless GOMEMLIMIT says otherwise: with it the garbage of a long
// run is collected before the process passes 512 MB, where the default
// (collect when the heap has doubled) would let a run of 250 MB of live
// data reach 560 MB.
const softMemory = 384 << 20

// boundMemory sets the soft memory limit of a run.
func boundMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemory)
	}
}
