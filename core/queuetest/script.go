package queuetest

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dagq/dagq/core"
)

// parseLine reads one line of a table case's script, the scenario
// language's commands with leases named more finely:
//
//	submit t d1 d2        next                  redrive t
//	heartbeat t           complete t            fail t ERR…      fail! t ERR… (permanent)
//	advance 10s           advanceto 15s (the clock to 15s: an advance by the difference)
//
// A task's lease is its current one; t@N is its latest lease of attempt
// N, t#K the K-th it was ever handed out, t~ the current lease's id with
// another attempt number, t?K a lease id never handed out, t!K the K-th
// of its leases that expired.
func parseLine(line string, now time.Duration) (op, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return op{}, fmt.Errorf("empty line")
	}
	lease := func(arg string) (string, leaseRef, error) {
		for _, c := range []struct {
			sep  string
			kind leaseKind
		}{{"@", leaseAttempt}, {"#", leaseNth}, {"?", leaseForged}, {"!", leaseExpired}} {
			if task, n, ok := strings.Cut(arg, c.sep); ok {
				k, err := strconv.Atoi(n)
				if err != nil {
					return "", leaseRef{}, fmt.Errorf("lease %q: %v", arg, err)
				}
				return task, leaseRef{kind: c.kind, n: k}, nil
			}
		}
		if task, ok := strings.CutSuffix(arg, "~"); ok {
			return task, leaseRef{kind: leaseTampered}, nil
		}
		return arg, leaseRef{}, nil
	}
	arg := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	var o op
	var err error
	switch f[0] {
	case "submit":
		// "" is the empty name, which is refused.
		for i := range f {
			if f[i] == `""` {
				f[i] = ""
			}
		}
		o = op{kind: opSubmit, task: arg(1), deps: f[min(2, len(f)):]}
	case "next":
		o = op{kind: opNext}
	case "heartbeat", "complete":
		o.kind = map[string]opKind{"heartbeat": opHeartbeat, "complete": opComplete}[f[0]]
		o.task, o.lease, err = lease(arg(1))
	case "fail", "fail!":
		o = op{kind: opFail, permanent: f[0] == "fail!", msg: strings.Join(f[min(2, len(f)):], " ")}
		o.task, o.lease, err = lease(arg(1))
	case "redrive":
		o = op{kind: opRedrive, task: arg(1)}
	case "advance", "advanceto":
		d, perr := time.ParseDuration(arg(1))
		if perr != nil {
			return op{}, perr
		}
		if f[0] == "advanceto" {
			d -= now
		}
		o = op{kind: opAdvance, dur: d}
	default:
		return op{}, fmt.Errorf("unknown command %q", f[0])
	}
	return o, err
}

// tableView is what a table case asserts of a queue: the state of each
// task in arrival order, the DLQ with its reasons, the READY line, the
// clock and the timers (a RUNNING task's lease deadline, a DELAYED task's
// due time), as the model folded them from the events and the checks
// after every line held the queue's reads to them.
//
//	a:DEAD b:BLOCKED | dlq [a failed after 1 attempt: x] [b blocked by a] | ready | now 0s | timers
func (m *model) tableView(dlq []core.DeadLetter) string {
	var b strings.Builder
	for _, t := range m.tasks {
		fmt.Fprintf(&b, "%s:%s ", t, m.state[t])
	}
	b.WriteString("| dlq")
	for _, d := range dlq {
		fmt.Fprintf(&b, " [%s %s]", d.Task, d.Reason)
	}
	b.WriteString(" | ready")
	for _, r := range m.fifo {
		b.WriteString(" " + r)
	}
	fmt.Fprintf(&b, " | now %v | timers", m.now)
	for _, t := range m.tasks {
		if x, ok := m.timers[t]; ok {
			fmt.Fprintf(&b, " %s@%v", t, x.at)
		}
	}
	return b.String()
}

// eventsLine writes events as a table case expects them:
// "a lease of attempt 1 expired at 10s @10s; …".
func eventsLine(evs []core.Event) string {
	s := make([]string, len(evs))
	for i, e := range evs {
		s[i] = fmt.Sprintf("%v @%v", e, e.At)
	}
	return strings.Join(s, "; ")
}
