package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dagq/dagq/durable"
)

// taskCmd is wq db task: a task's detail (durable.DB.TaskDetail), for
// people.
func taskCmd(ctx context.Context, db *durable.DB, dag, task string, w io.Writer) error {
	td, err := db.TaskDetail(ctx, dag, task)
	if errors.Is(err, durable.ErrNoTask) {
		return fmt.Errorf("DAG %q has no task %q", dag, task)
	}
	if err != nil {
		return err
	}
	printTask(w, td)
	return nil
}

// printTask writes a task's detail: what it is doing and why, its
// attempts, its lease, its links, its data, its times.
func printTask(w io.Writer, td durable.TaskDetail) {
	fmt.Fprintf(w, "DAG %s, task %s: %s", td.DAG, td.Name, td.State)
	if td.Reason != "" {
		fmt.Fprintf(w, " (%s)", plain(td.Reason))
	}
	if td.Poisoned {
		fmt.Fprint(w, ", poisoned: a bulk redrive skips it")
	}
	fmt.Fprintf(w, "\nattempts %d of %d", td.Attempts, td.MaxAttempts)
	if td.Redrives > 0 {
		fmt.Fprintf(w, ", redriven %d times", td.Redrives)
	}
	fmt.Fprintln(w)
	if l := td.Lease; l != nil {
		fmt.Fprintf(w, "lease %d, attempt %d, held by %s since %s", l.ID, l.Attempt, orDash(plain(l.Holder)), stamp(l.Since))
		if l.Deadline > 0 {
			fmt.Fprintf(w, ", expires %s", dagTime(l.Deadline))
		}
		fmt.Fprintln(w)
	}
	if td.Due > 0 {
		fmt.Fprintf(w, "due %s, when it joins the READY line\n", dagTime(td.Due))
	}
	fmt.Fprintf(w, "waits on %s\n", names(td.WaitsOn, len(td.WaitsOn), "nothing"))
	if len(td.Awaited) > 0 {
		fmt.Fprintf(w, "of which never submitted: %s\n", strings.Join(td.Awaited, ", "))
	}
	if len(td.Deps) > 0 {
		fmt.Fprintf(w, "dependencies %s\n", names(td.Deps, td.NumDeps, ""))
	}
	fmt.Fprintf(w, "waited on by %s\n", names(td.Dependents, td.NumDependents, "nothing"))
	if td.Args != nil {
		fmt.Fprintf(w, "args %s\n", payload(td.Args))
	}
	if td.Result != nil {
		fmt.Fprintf(w, "result %s\n", payload(td.Result))
	}
	fmt.Fprintf(w, "created %s, changed %s", stamp(td.Created), stamp(td.Changed))
	if !td.Finished.IsZero() {
		fmt.Fprintf(w, ", finished %s", stamp(td.Finished))
	}
	fmt.Fprintln(w)
	if len(td.Failures) == 0 {
		return
	}
	fmt.Fprintf(w, "failed attempts (the last %d kept):\n", len(td.Failures))
	for _, a := range td.Failures {
		kind := ""
		switch {
		case a.Expired:
			kind = " (the lease expired)"
		case a.Permanent:
			kind = " (permanent)"
		}
		life := ""
		if a.Redrives != td.Redrives {
			life = fmt.Sprintf(", before redrive %d", a.Redrives+1)
		}
		fmt.Fprintf(w, "  %d. %s%s -> %s%s\n     held by %s, %s to %s\n", a.Attempt, orDash(plain(a.Error)), kind, a.Outcome, life,
			orDash(plain(a.Holder)), stamp(a.Started), stamp(a.Ended))
	}
}

// names lists up to the names given of n, "and k more" for the rest, or
// none when there are none.
func names(list []string, n int, none string) string {
	if n == 0 {
		return none
	}
	s := strings.Join(list, ", ")
	if n > len(list) {
		s += fmt.Sprintf(" and %d more", n-len(list))
	}
	return fmt.Sprintf("(%d) %s", n, s)
}

// payload is a task's arguments or result for a terminal: the text if it
// is printable UTF-8 of at most 200 bytes, else its size.
func payload(b []byte) string {
	if len(b) <= 200 && utf8.Valid(b) && strings.IndexFunc(string(b), func(r rune) bool { return !unicode.IsPrint(r) }) < 0 {
		return string(b)
	}
	return strconv.Itoa(len(b)) + " bytes"
}

// stamp is a time of the database, in UTC to the millisecond; "-" for none.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05.000")
}

// dagTime is a time on a DAG's clock: a time of day on the database's clock
// (nanoseconds since the epoch), or a duration on a virtual clock.
func dagTime(d time.Duration) string {
	if d < 365*24*time.Hour {
		return "at " + d.String() + " on its virtual clock"
	}
	return "at " + stamp(time.Unix(0, int64(d)))
}

// orDash is s, or "-" when empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// plain is s with its control characters escaped (\x1b), so that what a
// handler failed with cannot drive the terminal it is printed on.
func plain(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
