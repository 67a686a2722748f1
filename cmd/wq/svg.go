package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/picture"
	"github.com/dagq/dagq/internal/playground"
)

// svgCmd is "wq svg [--step N|end] [--animate] [--strategy NAME] FILE|-":
// a standalone SVG of a scenario at a step, or an animation of all of it.
func svgCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("svg", flag.ContinueOnError)
	fs.SetOutput(stderr)
	step := fs.String("step", "end", "the step to draw: a number from 0, or end")
	animate := fs.Bool("animate", false, "draw an animation of the whole run, looping (CSS, no script)")
	strategy := fs.String("strategy", "", "cycle-check strategy (overrides the script's)")
	name, err := oneFile(fs, args)
	if err != nil {
		return err
	}
	k, ok := playground.ParseStep(*step)
	if !ok {
		return usageError{fmt.Errorf("--step must be a whole number or end, got %q", clipArg(*step))}
	}
	boundMemory()
	src, err := readScript(name, maxBytes)
	if err != nil {
		return err
	}
	// The picture is drawn whole before it is written (it is at most a
	// few megabytes): an error of Draw is the script's, never stdout's.
	var out bytes.Buffer
	err = picture.Draw(context.Background(), &out, src, scenario.Options{Strategy: *strategy}, runLimits, k, *animate)
	var syntax *scenario.SyntaxError
	var limit *scenario.LimitError
	var past *picture.StepError
	switch {
	case err == nil:
	case errors.As(err, &syntax):
		return atLine(name, err)
	case errors.As(err, &limit):
		return fmt.Errorf("%s: %w", name, err)
	case errors.As(err, &past):
		return usageError{fmt.Errorf("--step %d is past the end: the script runs %d steps", past.Step, past.Len)}
	default:
		return usageError{err} // an unknown strategy
	}
	if _, err := out.WriteTo(stdout); err != nil {
		return ioError{err}
	}
	return nil
}

// clipArg cuts an argument echoed in an error to 40 bytes.
func clipArg(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
