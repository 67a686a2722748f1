package main

import (
	"bufio"
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
	src, err := readScript(name)
	if err != nil {
		return ioError{err}
	}
	s, err := scenario.NewSession(src, scenario.Options{Strategy: *strategy})
	if err != nil {
		var syntax *scenario.SyntaxError
		if errors.As(err, &syntax) {
			return atLine(name, err)
		}
		return usageError{err}
	}
	if k != scenario.StepEnd && k > s.Len() {
		return usageError{fmt.Errorf("--step %d is past the end: the script runs %d steps", k, s.Len())}
	}
	out := bufio.NewWriter(stdout)
	if *animate {
		err = picture.Animated(out, s, scenario.Title(src))
	} else {
		err = picture.Static(out, s, k, scenario.Title(src))
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
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
