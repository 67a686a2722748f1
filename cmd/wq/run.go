package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/incremental"
)

// stdin is what "wq run -" reads; tests replace it.
var stdin io.Reader = os.Stdin

const usage = `wq runs dagq scenarios: a work queue with task dependencies, retries,
a dead-letter queue and a cycle check on every submit.

Usage:
  wq run [--json] [--strategy NAME] [LIMITS] [--max-bytes N] FILE|-
                                 run a scenario (- reads stdin), printing
                                 each command's result as it runs
  wq run --db URL [--dag NAME] [--json] FILE|-
                                 run it against the durable queue in Postgres
                                 (a new DAG unless --dag names one): the same trace
  wq migrate URL                 create or update the durable queue's tables
  wq db SUBCOMMAND URL ...       operate a durable queue: dags, show, dlq, task,
                                 redrive, delete, export, move, metrics, migrate
                                 (wq db help says more)
  wq scenarios [NAME]            list the built-in scenarios, or print one's text
  wq strategies                  list the cycle-check strategies, the default marked
  wq svg [--step N|end] [--animate] [--strategy NAME] FILE|-
                                 draw the scenario at a step as SVG, or animate all of it
  wq serve [--addr HOST:PORT] [--origins LIST] [--runs N] [--run-timeout D] [LIMITS]
                                 serve the browser playground (default 127.0.0.1:8080;
                                 --addr :8080 opens it to every interface)
  wq serve --db URL [--token T] [--read-only] [--streams N] [...]
                                 the same, with the database's live DAGs at /dags and
                                 their DLQ console; changes need the token printed
  wq practice init [--level L4|L5|L6] [--module PATH] [--dagq DIR|VERSION] DIR
                                 write a Go module with a stub queue and a test
                                 that holds it to dagq's rules at the level
  wq help                        print this text

LIMITS bound what one run may do; a run that reaches one stops, and its trace
ends with a line that says which (0 means no limit; a negative one is refused):
  --max-tasks N    tasks submitted       (run: 100000; serve: 100000)
  --max-steps N    commands run          (run: none;   serve: 100000)
  --max-events N   state changes         (run: none;   serve: 2000000)
  --max-output N   bytes of trace        (run: none;   serve: 67108864)
wq run and wq svg read at most --max-bytes N of script (default 67108864), from
a file or standard input; a longer script stops them before anything runs.
With the defaults, wq run stays under 512 MB whatever the script; a task name
is at most 256 bytes.

A scenario is one command a line ('#' starts a comment; durations are Go's,
250ms, 30s, 2m):
  attempts 3            max attempts (default 3), before the first submit
  strategy dfs          cycle-check strategy, before the first submit
  lease 30s             leases expire 30s after hand-out or heartbeat (default: never)
  backoff 1s 2 1m       retry delay: base, factor, most (default: retry at once)
  jitter full 42        none (default), full or equal, and the seed
  submit parse fetch    parse waits on fetch (fetch may arrive later)
  next                  hand out the front READY task
  heartbeat parse       renew parse's current lease
  complete parse        complete the task's current lease
  complete parse@1      complete with the lease of attempt 1 (refused if stale)
  fail fetch HTTP 503   fail the task's current lease (or fetch@N) with an error
  fail! fetch bad input a permanent error: DEAD at once, whatever attempts are left
  advance 10s           move the clock; what falls due fires in order of time
  redrive fetch         give a DEAD task fresh attempts
  expect parse BLOCKED  stop with an error unless parse is BLOCKED

Operating the dead-letter queue:
  poison 3              a task redriven 3 times that dies again needs a human,
                        before the first submit (default: off)
  alert 10 1m           alert once when 10 tasks enter the DLQ within 1m, clear
                        once when fewer do, before the first submit (default: off)
  dlq                   show the DEAD tasks grouped by the fingerprint of their
                        error, with what each group blocks
  preview redrive matching HTTP 503
                        what a redrive would do, changing nothing
  redrive matching HTTP 503 at 2/1s
                        redrive the DEAD tasks whose error contains the text,
                        2 now and 2 more every 1s of the clock (no "at": all now)
  redrive group 1 at 5/1m
                        the same for a group of dlq, by number or fingerprint
  redrive cancel        stop the redrive in progress
  redrive! fetch        redrive a poisoned task too

Exit status: 0 the run went through; 1 an expect failed (or the server or the
database failed); 2 the command line is wrong; 3 the script does not parse; 4
reading the script or writing the trace failed (a reader that went away, as
head does, ends wq quietly with 4); 5 a limit stopped the run, or the script
is longer than --max-bytes.

Try: wq scenarios diamond-redrive | wq run -
`

// run is the whole command; main only reports its error.
func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError{errors.New("no command given")}
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "run":
		return runScript(rest, stdout, stderr)
	case "migrate":
		return migrateCmd(rest, stdout)
	case "db":
		return dbCmd(rest, stdout)
	case "scenarios":
		return scenarios(rest, stdout)
	case "serve":
		return serveCmd(rest, stdout, stderr)
	case "svg":
		return svgCmd(rest, stdout, stderr)
	case "practice":
		return practiceCmd(rest, stdout)
	case "strategies":
		if len(rest) > 0 {
			return usageError{errors.New("strategies takes no arguments")}
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
		return usageError{fmt.Errorf("unknown command %q (want run, db, migrate, scenarios, strategies, svg, serve, practice or help)", cmd)}
	}
}

// runLimits are the limits of "wq run" unless its flags say otherwise:
// with a script of at most --max-bytes (64 MiB by default), 100,000 tasks
// keep a run under 512 MB whatever the script does (a death that blocks
// them all holds an event for each while its step is written); the trace
// is streamed, so steps and output cost no memory.
var runLimits = scenario.Limits{Tasks: 100_000}

// runScript is "wq run". Flags may come before or after the file.
//
// The script is read whole, checked (a syntax error stops it before
// anything runs), then run a command at a time, each step's trace written
// as soon as it has run: memory is the script's size plus the queue's,
// never the trace's.
func runScript(args []string, stdout, stderr io.Writer) (result error) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object per command")
	strategy := fs.String("strategy", "", "cycle-check strategy (overrides the script's)")
	dbURL := fs.String("db", "", "run against the durable queue in this Postgres database")
	dag := fs.String("dag", "", "with --db: the DAG to run in (default: a new one)")
	lim := limitFlags(fs, runLimits)
	most := fs.Int64("max-bytes", maxBytes, "most bytes of script to read, from a file or standard input")
	name, err := oneFile(fs, args)
	if err != nil {
		return err
	}
	if err := checkLimits(lim); err != nil {
		return err
	}
	boundMemory()
	src, err := readScript(name, *most)
	if err != nil {
		return err
	}
	opt := scenario.Options{Strategy: *strategy}
	if *dbURL != "" {
		open, closeDB, err := openDB(context.Background(), *dbURL, *dag)
		if err != nil {
			return err
		}
		defer func() {
			if err := closeDB(); err != nil && result == nil {
				result = ioError{fmt.Errorf("reading the database: %w", err)}
			}
		}()
		opt.Open = open
	} else if *dag != "" {
		return usageError{errors.New("--dag goes with --db")}
	}
	stream, err := scenario.NewStream(src, opt)
	if err != nil {
		var syntax *scenario.SyntaxError
		if errors.As(err, &syntax) {
			return atLine(name, err)
		}
		return usageError{err}
	}
	format := scenario.Text
	if *asJSON {
		format = scenario.JSON
	}
	out := newLiveWriter(stdout)
	runErr := stream.Run(context.Background(), out, format, *lim)
	if err := out.Flush(); err != nil && runErr == nil {
		runErr = err
	}
	var expect *scenario.ExpectError
	var limit *scenario.LimitError
	switch {
	case runErr == nil:
		return nil
	case errors.As(runErr, &expect):
		return atLine(name, runErr)
	case errors.As(runErr, &limit):
		return fmt.Errorf("%s: %w", name, runErr)
	}
	return ioError{fmt.Errorf("writing the trace: %w", runErr)}
}

// oneFile parses the flags of a command that takes one FILE or -, the
// flags before or after it, and returns the file.
func oneFile(fs *flag.FlagSet, args []string) (string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return "", usageFlag(err)
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 1 {
		return "", usageError{fmt.Errorf("%s takes one FILE or - (got %d)", fs.Name(), len(files))}
	}
	return files[0], nil
}

// readScript reads a script from a file, or from stdin for "-", into one
// string, and at most most bytes of it: a longer script is a sizeError,
// read no further. It fails with an ioError when it cannot read, or a
// usageError for a most below 1.
//
// A regular file's size is known: it is read into a string of that size.
// Standard input is read in chunks of 1 MiB, then copied into one string:
// reading it takes at most about 2 × most bytes, never a buffer doubled
// past most.
func readScript(name string, most int64) (string, error) {
	if most < 1 {
		return "", usageError{fmt.Errorf("--max-bytes %d must be at least 1", most)}
	}
	r := io.LimitReader(stdin, most+1)
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", ioError{err}
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if st.Size() > most {
				return "", sizeError{name, most}
			}
			var b strings.Builder
			b.Grow(int(st.Size()) + 1)
			if _, err := io.Copy(&b, io.LimitReader(f, most+1)); err != nil {
				return "", ioError{err}
			}
			if int64(b.Len()) > most {
				return "", sizeError{name, most} // it grew while read
			}
			return b.String(), nil
		}
		r = io.LimitReader(f, most+1)
	}
	var chunks [][]byte
	total := 0
	for {
		chunk := make([]byte, 1<<20)
		n, err := io.ReadFull(r, chunk)
		chunks = append(chunks, chunk[:n])
		total += n
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return "", ioError{err}
		}
	}
	if int64(total) > most {
		return "", sizeError{name, most}
	}
	var b strings.Builder
	b.Grow(total)
	for i, c := range chunks {
		b.Write(c)
		chunks[i] = nil
	}
	return b.String(), nil
}

// usageFlag marks a flag parsing error as a usage error; -h stays ErrHelp.
func usageFlag(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	return usageError{err}
}

// liveWriter buffers a trace and flushes it at least every flushEvery, so
// that a long run shows its steps as it goes without a write per step.
type liveWriter struct {
	*bufio.Writer
	flushed time.Time
}

// flushEvery is how stale the output of a running trace may get.
const flushEvery = 100 * time.Millisecond

func newLiveWriter(w io.Writer) *liveWriter {
	return &liveWriter{Writer: bufio.NewWriterSize(w, 64<<10), flushed: time.Now()}
}

func (l *liveWriter) Write(p []byte) (int, error) {
	n, err := l.Writer.Write(p)
	if err == nil && time.Since(l.flushed) >= flushEvery {
		err = l.Flush()
		l.flushed = time.Now()
	}
	return n, err
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
			return usageError{fmt.Errorf("no scenario %q (have %s)", args[0], strings.Join(names, ", "))}
		}
		if _, err := io.WriteString(stdout, e.Text); err != nil {
			return ioError{err}
		}
		return nil
	default:
		return usageError{errors.New("scenarios takes at most one NAME")}
	}
}
