package scenario

import (
	"context"
	"io"
)

// Stream is a script checked and ready to run, one command at a time,
// writing its trace as it goes: what `wq run` and the server's /api/run
// do. Unlike [Run] it keeps no step once written, and parses each line
// only when it reaches it, so that its memory is O(script + tasks) for a
// script of any length (see [Limits]).
//
// A Stream runs once.
type Stream struct {
	src      string
	lastLine int // of the last command
	runner   *Runner
}

// NewStream checks src and makes the queue it runs against, from its
// attempts and strategy lines or opt (see [NewRunner]), without running
// anything: it fails with a [*SyntaxError] for a script that does not
// parse and with an error for an unknown strategy, and writes nothing.
//
// The cost is O(len(src)) time and O(1) memory besides src.
func NewStream(src string, opt Options) (*Stream, error) {
	header, lastLine, err := check(src)
	if err != nil {
		return nil, err
	}
	r, err := NewRunner(header, opt)
	if err != nil {
		return nil, err
	}
	r.stream(header)
	return &Stream{src: src, lastLine: lastLine, runner: r}, nil
}

// Strategy returns the cycle-check strategy the run uses.
func (s *Stream) Strategy() string { return s.runner.q.Config().Strategy }

// Attempts returns the max attempts of the run's queue.
func (s *Stream) Attempts() int { return s.runner.q.Config().MaxAttempts }

// Run runs the script's commands in order, writing each step to w in
// format f as soon as it has run (one Write per step), then the closing
// lines. It returns nil when every command ran; the [*ExpectError] of an
// expect that failed (its step written, as [Run] does); a [*LimitError]
// when one of lim or ctx stopped it, which the trace's last line also
// says; or the error of a Write, when it stops at once.
//
// ctx is consulted before every command: a deadline, a client that went
// away or a server shutting down stops the run before its next command.
func (s *Stream) Run(ctx context.Context, w io.Writer, f Format, lim Limits) error {
	q := s.runner.q
	form := newFormatter(f, s.lastLine)
	var written int64
	cw := countingWriter{w: w, n: &written}
	buf := form.begin(nil, q.Config().Strategy, q.Config().MaxAttempts)
	write := func() error {
		_, err := cw.Write(buf)
		buf = buf[:0]
		return err
	}
	if err := write(); err != nil {
		return err
	}
	// A step's line is kept until it is whole when an output limit may
	// refuse it, and so holds at most lim.Output bytes; without a limit it
	// is written out in chunks as it is built.
	spill := spillAt(cw, spillChunk)
	if lim.Output > 0 {
		spill = func(dst []byte) ([]byte, error) {
			if written+int64(len(dst)) > lim.Output {
				return dst, errOverLimit
			}
			return dst, nil
		}
	}
	var stop error
	steps, events := 0, 0
	for c := range commands(s.src) {
		if ctx.Err() != nil {
			stop = stopped(ctx, c.Line)
			break
		}
		switch {
		case lim.Steps > 0 && steps >= lim.Steps:
			stop = &LimitError{Line: c.Line, Limit: "steps", Max: int64(lim.Steps)}
		case lim.Events > 0 && events >= lim.Events:
			stop = &LimitError{Line: c.Line, Limit: "events", Max: int64(lim.Events)}
		case lim.Tasks > 0 && c.Op == OpSubmit && q.Len() >= lim.Tasks:
			stop = &LimitError{Line: c.Line, Limit: "tasks", Max: int64(lim.Tasks)}
		}
		if stop != nil {
			break
		}
		st := s.runner.Exec(c)
		steps++
		events += len(st.Events)
		var err error
		buf, err = form.step(buf, st, spill)
		if err == errOverLimit {
			buf = buf[:0]
			stop = &LimitError{Line: c.Line, Limit: "output", Max: lim.Output}
			break
		}
		if err != nil {
			return err
		}
		if err := write(); err != nil {
			return err
		}
		if c.Op == OpExpect && !st.OK {
			stop = &ExpectError{Line: c.Line, Col: c.Col, Task: c.Task, Want: c.Want, Got: st.State}
			break
		}
	}
	// The closing lines are not limited (see Limits.Output).
	buf, err := form.end(buf, stop, spillAt(cw, spillChunk))
	if err != nil {
		return err
	}
	if err := write(); err != nil {
		return err
	}
	return stop
}

// countingWriter counts the bytes written through it into n.
type countingWriter struct {
	w io.Writer
	n *int64
}

func (c countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	*c.n += int64(n)
	return n, err
}
