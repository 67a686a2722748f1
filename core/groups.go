package core

import "time"

// DeadLetterGroup is the DEAD tasks of the dead-letter queue that share a
// [Fingerprint]: one root cause, as far as the error text tells.
type DeadLetterGroup struct {
	Fingerprint string
	Example     string        // the error of its first task, as it was
	Count       int           // its DEAD tasks
	First, Last time.Duration // when the first and the last of them entered the DLQ
	Tasks       []string      // its DEAD tasks, in DLQ order
	BlastRadius int           // the BLOCKED tasks they hold, the sum of their blast radii
	Poisoned    []string      // those of Tasks that are poisoned, in DLQ order
}

// DeadLetterGroups returns the DEAD entries of the dead-letter queue grouped
// by the fingerprint of their error, the groups in the order of their first
// entry (the DLQ's order). BLOCKED tasks are in no group: they count in the
// blast radius of the group of their root. The cost is O(entries), plus a
// Fingerprint for each DEAD task not fingerprinted before (once per death,
// and once per distinct error text within the call).
func (q *Queue) DeadLetterGroups() []DeadLetterGroup {
	var out []DeadLetterGroup
	at := map[string]int{} // fingerprint → index in out
	byText := map[string]string{}
	q.eachDeadLetter(func(v int32) {
		if q.nodes.at(v).state != dead {
			return
		}
		n := &q.dl[v]
		if !n.fpOK {
			fp, ok := byText[n.errText]
			if !ok {
				fp = Fingerprint(n.errText)
				byText[n.errText] = fp
			}
			n.fp, n.fpOK = fp, true
		}
		i, ok := at[n.fp]
		if !ok {
			i = len(out)
			at[n.fp] = i
			out = append(out, DeadLetterGroup{Fingerprint: n.fp, Example: n.errText, First: n.entered})
		}
		g := &out[i]
		g.Count++
		g.Last = max(g.Last, n.entered)
		g.Tasks = append(g.Tasks, q.nodes.at(v).name)
		g.BlastRadius += int(n.blocks)
		if n.poisoned {
			g.Poisoned = append(g.Poisoned, q.nodes.at(v).name)
		}
	})
	return out
}

// GroupDeadLetters groups the DEAD entries of a dead-letter queue, given in
// the order they entered it (as [Queue.DeadLetters] gives them), by the
// fingerprint of their error, exactly as [Queue.DeadLetterGroups] does: for
// the views of a queue rebuilt elsewhere, from its events or from a
// database.
//
// The cost is O(len(dl)).
func GroupDeadLetters(dl []DeadLetter) []DeadLetterGroup {
	var out []DeadLetterGroup
	at := map[string]int{} // fingerprint → index in out
	for _, d := range dl {
		if d.State != Dead {
			continue
		}
		i, ok := at[d.Fingerprint]
		if !ok {
			i = len(out)
			at[d.Fingerprint] = i
			out = append(out, DeadLetterGroup{Fingerprint: d.Fingerprint, Example: d.Error, First: d.Entered})
		}
		g := &out[i]
		g.Count++
		g.Last = max(g.Last, d.Entered)
		g.Tasks = append(g.Tasks, d.Task)
		g.BlastRadius += d.BlastRadius
		if d.Poisoned {
			g.Poisoned = append(g.Poisoned, d.Task)
		}
	}
	return out
}
