package main

import (
	"errors"
	"flag"

	"github.com/dagq/dagq/core/scenario"
)

// The exit statuses of wq, as `wq help` documents them.
const (
	exitOK     = 0
	exitFailed = 1 // an expect failed, or the server could not run
	exitUsage  = 2 // the command line is wrong
	exitSyntax = 3 // the script does not parse
	exitIO     = 4 // reading the script or writing the trace failed (a closed pipe too)
	exitLimit  = 5 // a limit stopped the run, or the script is longer than --max-bytes
)

// usageError is a command line that wq cannot follow.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// ioError is a failure to read a script or write a trace.
type ioError struct{ error }

func (e ioError) Unwrap() error { return e.error }

// exitCode returns the exit status for what run returned.
func exitCode(err error) int {
	var (
		usage  usageError
		io     ioError
		syntax *scenario.SyntaxError
		limit  *scenario.LimitError
	)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &usage):
		return exitUsage
	case errors.As(err, &syntax):
		return exitSyntax
	case errors.As(err, &io):
		return exitIO
	case errors.As(err, &limit), errors.Is(err, errScriptSize):
		return exitLimit
	}
	return exitFailed
}
