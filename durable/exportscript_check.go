package durable

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
)

// maxExportDiffs is the most differences the header lists one by one.
const maxExportDiffs = 20

// verify compares the replay with the database: every task's state, the
// dead-letter queue (its order, reasons, roots, poisoned tasks, blast
// radii), the READY line, the alert and the redrive under way.
func (x *exporter) verify() {
	for _, t := range x.s.tasks {
		st, _ := x.q.Status(t.script)
		if st != t.state {
			x.diff("%s is %s in the replay, %s in the database", t.script, orNone(st), t.state)
		}
	}
	var want []*exportTask
	for _, t := range x.s.tasks {
		if t.dlqSeq != nil && (t.state == core.Dead || t.state == core.Blocked) {
			want = append(want, t)
		}
	}
	slices.SortFunc(want, func(a, b *exportTask) int { return cmp.Compare(*a.dlqSeq, *b.dlqSeq) })
	got := x.q.DeadLetters()
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			x.diff("the replay's dead-letter queue ends before %s", want[i].script)
		case i >= len(want):
			x.diff("the replay's dead-letter queue has %s past the database's end", got[i].Task)
		default:
			g, w := got[i], want[i]
			reason := w.reason
			if w.state == core.Blocked {
				reason = "blocked by " + w.root
			}
			switch {
			case g.Task != w.script:
				x.diff("entry %d of the dead-letter queue is %s in the replay, %s in the database", i+1, g.Task, w.script)
			case g.Root != w.root:
				x.diff("%s is blocked by %s in the replay, by %s in the database", w.script, orNone(core.State(g.Root)), orNone(core.State(w.root)))
			case w.state == core.Dead && g.Reason != lineText(reason):
				x.diff("%s's reason is %q in the replay, %q in the database", w.script, g.Reason, reason)
			case g.Poisoned != w.poisoned:
				x.diff("%s is poisoned in one and not in the other", w.script)
			case w.state == core.Dead && g.BlastRadius != w.blocks:
				x.diff("%s blocks %d tasks in the replay, %d in the database", w.script, g.BlastRadius, w.blocks)
			}
		}
	}
	var ready []*exportTask
	for _, t := range x.s.tasks {
		if t.state == core.Ready {
			ready = append(ready, t)
		}
	}
	slices.SortFunc(ready, func(a, b *exportTask) int { return cmp.Compare(*a.readySeq, *b.readySeq) })
	line := x.q.ReadyTasks()
	if len(line) == len(ready) {
		for i, t := range ready {
			if line[i] != t.script {
				x.diff("the READY line differs at place %d: %s in the replay, %s in the database", i+1, line[i], t.script)
				break
			}
		}
	}
	if a := x.q.Stats().Alerting; x.s.cfg.Alert.Entries > 0 && a != x.s.alertOn {
		x.diff("the growth alert is %s in the replay, %s in the database", onOff(a), onOff(x.s.alertOn))
	}
	if job := x.q.Stats().Redrive; x.s.job.underWay != (job != nil) {
		x.diff("a redrive is under way in one and not in the other")
	}
}

// orNone is a state, or "not submitted".
func orNone(s core.State) string {
	if s == "" {
		return "not submitted"
	}
	return string(s)
}

// onOff says whether an alert is raised.
func onOff(b bool) string {
	if b {
		return "raised"
	}
	return "not raised"
}

// text writes the script: its comment, the settings, each section under
// its own comment.
func (x *exporter) text(header []scenario.Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# DAG %s, exported from its database: %d tasks", comment(x.s.dag), len(x.s.tasks))
	if len(x.s.awaited) > 0 {
		fmt.Fprintf(&b, "; never submitted, so left out: %s", comment(strings.Join(x.s.awaited, ", ")))
	}
	b.WriteString("\n")
	if len(x.diffs) == 0 {
		b.WriteString("# Replayed, it stands where the database does: every state, reason and root, the\n# dead-letter queue in its order, the READY line.\n")
	} else {
		fmt.Fprintf(&b, "# Replayed, it differs from the database in %d ways:\n", len(x.diffs))
		for i, d := range x.diffs {
			if i == maxExportDiffs {
				fmt.Fprintf(&b, "#   and %d more\n", len(x.diffs)-i)
				break
			}
			fmt.Fprintf(&b, "#   - %s\n", comment(d))
		}
	}
	if len(x.notes) > 0 {
		b.WriteString("# Not as in the database:\n")
		for _, n := range x.notes {
			fmt.Fprintf(&b, "#   - %s\n", comment(n))
		}
	}
	for _, c := range header {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	for _, s := range x.sections {
		if len(s.cmds) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n# %s\n", s.comment)
		for _, c := range s.cmds {
			b.WriteString(c.String())
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// comment is s as a comment line can hold it: one line.
func comment(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}
