package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// dbUsage is the help of "wq db".
const dbUsage = `wq db operates a durable queue's database:
  wq db dags URL                 each DAG: its tasks by state, names awaited that never
                                 arrived, its dead-letter queue and whether its growth
                                 alert is raised, its age, its oldest READY
  wq db show URL DAG             a DAG's tasks by state, what each waits on, the names
                                 awaited that never arrived
  wq db dlq URL DAG              a DAG's dead-letter queue, grouped by root cause
  wq db task URL DAG TASK        a task's detail: its state and why, its failed attempts
                                 with their errors, times and lease holders, its lease,
                                 what it waits on and what waits on it, its args and result
  wq db redrive URL DAG (--group N|--match TEXT) [--preview] [--rate N/D]
                                 redrive the DEAD tasks of a group (as dlq numbers them)
                                 or whose error contains TEXT: at once, or N every D;
                                 --preview says what it would do and changes nothing
  wq db redrive URL DAG --cancel stop a redrive at a rate
  wq db delete URL DAG           delete a DAG and everything of it
  wq db export URL DAG [-o FILE] a scenario script that rebuilds the DAG as it stands in
                                 the simulator (wq run FILE, the playground): an incident
                                 to replay, share or practise on; its opening comment says
                                 what the language cannot say exactly
  wq db move URL... DAG --to N   move a DAG, with every row of it, to the Nth database (from 0)
                                 of a sharded queue's, the URLs in the order its workers
                                 open them, once the DAG's RUNNING tasks are done; first
                                 repairs what a move that died half way left
  wq db metrics URL              the metrics the database holds (tasks by state, DLQ size),
                                 as the library reports them through OpenTelemetry
  wq db migrate URL              create or update the tables (as wq migrate)
`

// dbCmd is "wq db".
func dbCmd(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, dbUsage)
		return usageError{errors.New("db needs a subcommand")}
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "help", "-h", "--help":
		fmt.Fprint(stdout, dbUsage)
		return nil
	case "migrate":
		return migrateCmd(rest, stdout)
	case "dags", "show", "dlq", "task", "redrive", "delete", "export", "move", "metrics":
	default:
		return usageError{fmt.Errorf("unknown db subcommand %q (want dags, show, dlq, task, redrive, delete, export, move, metrics or migrate)", sub)}
	}
	fs := flag.NewFlagSet("wq db "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	group := fs.Int("group", 0, "")
	match := fs.String("match", "", "")
	preview := fs.Bool("preview", false, "")
	rateFlag := fs.String("rate", "", "")
	cancel := fs.Bool("cancel", false, "")
	outFile := fs.String("o", "", "")
	to := fs.Int("to", -1, "")
	var pos []string
	for {
		if err := fs.Parse(rest); err != nil {
			return usageFlag(err)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if sub != "redrive" && (*group != 0 || *match != "" || *preview || *rateFlag != "" || *cancel) {
		return usageError{fmt.Errorf("--group, --match, --preview, --rate and --cancel go with db redrive")}
	}
	if (sub == "move") != (*to >= 0) {
		if sub == "move" {
			return usageError{errors.New("db move needs --to N, the number of the database to move to (from 0)")}
		}
		return usageError{errors.New("--to goes with db move")}
	}
	if sub != "export" && *outFile != "" {
		return usageError{fmt.Errorf("-o goes with db export")}
	}
	ctx := context.Background()
	if sub == "move" {
		if len(pos) < 3 {
			return usageError{fmt.Errorf("db move takes the databases' URLs and the DAG (got %d arguments)", len(pos))}
		}
		return moveCmd(ctx, pos[:len(pos)-1], pos[len(pos)-1], *to, stdout)
	}
	want, nargs := "URL and DAG", 2
	switch sub {
	case "dags", "metrics":
		want, nargs = "URL", 1
	case "task":
		want, nargs = "URL, DAG and TASK", 3
	}
	if len(pos) != nargs {
		return usageError{fmt.Errorf("db %s takes %s (got %d arguments)", sub, want, len(pos))}
	}
	if sub == "metrics" {
		return metricsCmd(ctx, pos[0], stdout)
	}
	db, err := durable.Open(ctx, pos[0], durable.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	if sub == "dags" {
		return printDAGs(ctx, db, stdout)
	}
	dag := pos[1]
	if sub == "delete" {
		ok, err := db.DeleteDAG(ctx, dag)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("no DAG %q", dag)
		}
		fmt.Fprintf(stdout, "deleted %s\n", dag)
		return nil
	}
	ok, err := db.HasDAG(ctx, dag)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("no DAG %q", dag)
	}
	switch sub {
	case "export":
		return exportCmd(ctx, db, dag, *outFile, stdout)
	case "task":
		return taskCmd(ctx, db, dag, pos[2], stdout)
	}
	q, err := db.Queue(ctx, dag, core.Config{MaxAttempts: 1}) // exists: its settings are kept
	if err != nil {
		return err
	}
	switch sub {
	case "show":
		return printShow(ctx, q, stdout)
	case "dlq":
		return printDLQ(ctx, q, stdout)
	}
	return redriveCmd(ctx, q, stdout, *group, *match, *preview, *rateFlag, *cancel)
}

// printDAGs prints dagq dags.
func printDAGs(ctx context.Context, db *durable.DB, w io.Writer) error {
	dags, err := db.DAGs(ctx)
	if err != nil {
		return err
	}
	if len(dags) == 0 {
		fmt.Fprintln(w, "no DAGs")
		return nil
	}
	fmt.Fprintf(w, "%-20s %7s %7s %7s %7s %9s %7s %7s %7s %5s %6s %10s %12s\n",
		"DAG", "PENDING", "READY", "RUNNING", "DELAYED", "SUCCEEDED", "DEAD", "BLOCKED", "AWAITED", "DLQ", "ALERT", "AGE", "OLDEST-READY")
	for _, d := range dags {
		oldest := "-"
		if d.Counts[core.Ready] > 0 {
			oldest = d.OldestReady.Round(time.Second).String()
		}
		alert := "-"
		if d.Alerting {
			alert = "raised"
		}
		fmt.Fprintf(w, "%-20s %7d %7d %7d %7d %9d %7d %7d %7d %5d %6s %10s %12s\n", d.DAG,
			d.Counts[core.Pending], d.Counts[core.Ready], d.Counts[core.Running], d.Counts[core.Delayed],
			d.Counts[core.Succeeded], d.Counts[core.Dead], d.Counts[core.Blocked], d.Awaited, d.DLQ, alert,
			d.Age.Round(time.Second), oldest)
	}
	return nil
}

// printShow prints dagq show: the tasks by state, in core's order of
// states, each with what it waits on.
func printShow(ctx context.Context, q *durable.Queue, w io.Writer) error {
	tasks, awaited, err := q.Tasks(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "DAG %s: %d tasks\n", q.DAG(), len(tasks))
	for _, st := range core.States() {
		var lines []string
		for _, t := range tasks {
			if t.State != st {
				continue
			}
			line := "  " + t.Name
			if len(t.WaitsOn) > 0 && st != core.Succeeded {
				line += "  waits on " + strings.Join(t.WaitsOn, ", ")
			}
			lines = append(lines, line)
		}
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s (%d)\n%s\n", st, len(lines), strings.Join(lines, "\n"))
	}
	if len(awaited) > 0 {
		fmt.Fprintf(w, "awaited, never submitted (%d)\n  %s\n", len(awaited), strings.Join(awaited, "\n  "))
	}
	return nil
}

// printDLQ prints dagq dlq: the DEAD tasks grouped by the fingerprint of
// their error, each group numbered as redrive --group takes it.
func printDLQ(ctx context.Context, q *durable.Queue, w io.Writer) error {
	groups, err := q.DeadLetterGroups(ctx)
	if err != nil {
		return err
	}
	if len(groups) == 0 {
		fmt.Fprintf(w, "DAG %s: the dead-letter queue is empty\n", q.DAG())
		return nil
	}
	for i, g := range groups {
		fmt.Fprintf(w, "%d. %s\n", i+1, describeGroup(g))
	}
	return nil
}

// describeGroup is one group of dlq: its size, blast radius, example
// error and tasks.
func describeGroup(g core.DeadLetterGroup) string {
	s := fmt.Sprintf("%d DEAD, blocking %d: %s\n   fingerprint %s\n   tasks: %s",
		g.Count, g.BlastRadius, g.Example, g.Fingerprint, strings.Join(g.Tasks, ", "))
	if len(g.Poisoned) > 0 {
		s += "\n   poisoned (redrive skips them): " + strings.Join(g.Poisoned, ", ")
	}
	return s
}

// redriveCmd is dagq redrive.
func redriveCmd(ctx context.Context, q *durable.Queue, w io.Writer, group int, match string, preview bool, rateFlag string, cancel bool) error {
	if cancel {
		if group != 0 || match != "" || preview || rateFlag != "" {
			return usageError{errors.New("--cancel takes no other flag")}
		}
		if err := q.CancelRedrive(ctx); err != nil {
			return err
		}
		fmt.Fprintln(w, "cancelled")
		return nil
	}
	if (group != 0) == (match != "") {
		return usageError{errors.New("redrive needs exactly one of --group N and --match TEXT")}
	}
	var rate core.Rate
	if rateFlag != "" {
		n, per, ok := strings.Cut(rateFlag, "/")
		var err error
		if rate.N, err = strconv.Atoi(n); ok && err == nil {
			rate.Per, err = time.ParseDuration(per)
		}
		if !ok || err != nil || rate.N < 1 || rate.Per <= 0 {
			return usageError{fmt.Errorf("--rate %q: want N/DURATION, such as 10/1s", rateFlag)}
		}
	}
	sel := core.Selector{Contains: match}
	if group != 0 {
		groups, err := q.DeadLetterGroups(ctx)
		if err != nil {
			return err
		}
		if group < 1 || group > len(groups) {
			return fmt.Errorf("there is no group %d: the dead-letter queue has %d", group, len(groups))
		}
		sel = core.Selector{Fingerprint: groups[group-1].Fingerprint}
	}
	if preview {
		p, err := q.PreviewRedrive(ctx, sel)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "preview of redrive %s: to redrive %d, released %d, still blocked %d, poisoned and skipped %d\n",
			p.Selector, len(p.Roots), p.Released, p.Blocked, len(p.Skipped))
		for _, r := range p.Roots {
			fmt.Fprintf(w, "  %s", r.Task)
			if len(r.Release) > 0 {
				fmt.Fprintf(w, "  releases %s", strings.Join(r.Release, ", "))
			}
			fmt.Fprintln(w)
		}
		return nil
	}
	job, err := q.RedriveMatching(ctx, sel, rate)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "redrive %s: tasks %d, poisoned and skipped %d", job.Selector, len(job.Tasks), len(job.Skipped))
	if job.Finished {
		fmt.Fprintf(w, ", %d redriven\n", job.Done)
	} else {
		fmt.Fprintf(w, ", %d redriven so far, %d every %v (redrive --cancel stops it)\n", job.Done, job.Rate.N, job.Rate.Per)
	}
	return nil
}

// exportCmd is wq db export: the DAG's script, on stdout or into file.
// A file is written whole or not at all: into a temporary file beside it,
// renamed over it once complete, so that a failed export leaves what was
// there.
func exportCmd(ctx context.Context, db *durable.DB, dag, file string, w io.Writer) error {
	script, err := db.ExportScript(ctx, dag)
	if err != nil {
		return err
	}
	if file == "" || file == "-" {
		_, err := io.WriteString(w, script)
		return err
	}
	return writeFileAtomically(file, []byte(script))
}

// writeFileAtomically writes data to name through a temporary file in the
// same directory, renamed over name once written and synced.
func writeFileAtomically(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		_ = os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		_ = os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}
