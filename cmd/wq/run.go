package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/incremental"
)

// stdin is what "wq run -" reads; tests replace it.
var stdin io.Reader = os.Stdin

const usage = `wq runs dagq scenarios: a work queue with task dependencies, retries,
a dead-letter queue and a cycle check on every submit.

Usage:
  wq run [--json] [--strategy NAME] FILE|-   run a scenario (- reads stdin) and print its trace
  wq scenarios [NAME]                       list the built-in scenarios, or print one's text
  wq strategies                             list the cycle-check strategies, the default marked
  wq serve [--addr HOST:PORT]               serve the browser playground (default :8080)
  wq help                                   print this text

A scenario is one command a line ('#' starts a comment):
  attempts 3            max attempts (default 3), before the first submit
  strategy dfs          cycle-check strategy, before the first submit
  submit parse fetch    parse waits on fetch (fetch may arrive later)
  next                  hand out the front READY task
  complete parse        complete the task's current lease
  fail fetch HTTP 503   fail the task's current lease with an error
  redrive fetch         give a DEAD task fresh attempts
  expect parse BLOCKED  stop with an error unless parse is BLOCKED

Try: wq scenarios diamond-redrive | wq run -
`

// run is the whole command; main only reports its error.
func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "run":
		return runScript(rest, stdout, stderr)
	case "scenarios":
		return scenarios(rest, stdout)
	case "serve":
		return serveCmd(rest, stdout, stderr)
	case "strategies":
		if len(rest) > 0 {
			return fmt.Errorf("strategies takes no arguments")
		}
		for _, name := range incremental.Names() {
			if name == incremental.Default {
				name += " (default)"
			}
			fmt.Fprintln(stdout, name)
		}
		return nil
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		return fmt.Errorf("unknown command %q (want run, scenarios, strategies, serve or help)", cmd)
	}
}

// runScript is "wq run". Flags may come before or after the file.
func runScript(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object per command")
	strategy := fs.String("strategy", "", "cycle-check strategy (overrides the script's)")
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 1 {
		return fmt.Errorf("run takes one FILE or - (got %d)", len(files))
	}
	name := files[0]
	var src []byte
	var err error
	if name == "-" {
		src, err = io.ReadAll(stdin)
	} else {
		src, err = os.ReadFile(name)
	}
	if err != nil {
		return err
	}
	script, err := scenario.Parse(string(src))
	if err != nil {
		return atLine(name, err)
	}
	trace, runErr := scenario.Run(script, scenario.Options{Strategy: *strategy})
	if trace != nil {
		write := scenario.WriteText
		if *asJSON {
			write = scenario.WriteJSON
		}
		if err := write(stdout, trace); err != nil {
			return err
		}
	}
	if runErr != nil {
		return atLine(name, runErr)
	}
	return nil
}

// atLine prefixes errors that carry a line and column with the file name,
// as compilers do: "FILE:LINE:COL: message".
func atLine(file string, err error) error {
	var syntax *scenario.SyntaxError
	var expect *scenario.ExpectError
	if errors.As(err, &syntax) || errors.As(err, &expect) {
		return fmt.Errorf("%s:%w", file, err)
	}
	return err
}

// scenarios is "wq scenarios [NAME]".
func scenarios(args []string, stdout io.Writer) error {
	switch len(args) {
	case 0:
		for _, e := range scenario.Library() {
			fmt.Fprintf(stdout, "%-20s %s\n", e.Name, e.Title)
		}
		return nil
	case 1:
		e, ok := scenario.Lookup(args[0])
		if !ok {
			var names []string
			for _, e := range scenario.Library() {
				names = append(names, e.Name)
			}
			return fmt.Errorf("no scenario %q (have %s)", args[0], strings.Join(names, ", "))
		}
		_, err := io.WriteString(stdout, e.Text)
		return err
	default:
		return fmt.Errorf("scenarios takes at most one NAME")
	}
}
