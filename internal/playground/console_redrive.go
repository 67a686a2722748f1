package playground

import (
	"strconv"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/scenario"
	"github.com/dagq/dagq/internal/session"
)

// PacedRedrive is a bulk redrive at a rate, in progress at the step shown:
// how far it got, when its next batch is due, and the commands that move
// it on (an advance to its next batch) or stop it.
type PacedRedrive struct {
	Label  string // "10/40 redriven, next batch in 7s"
	Next   string // the command that reaches the next batch: "advance 7s"; "" in a live view
	Cancel string // "redrive cancel"
	// Why says why the groups' Redrive buttons are disabled meanwhile.
	Why string
}

// refusedWhileRedriving is why a redrive of a group is refused while a
// paced one runs: the queue runs one at a time.
const refusedWhileRedriving = "A redrive is in progress: one runs at a time. Cancel it, or wait for its last batch."

// pacedRedrive returns the bulk redrive at a rate in progress at step k,
// from the steps' events: the last one started at or before k and not
// done or cancelled by k. The cost is O(steps since it started), and
// O(log r) for r steps that start a redrive when none is in progress.
func pacedRedrive(s *session.Session, k int) (PacedRedrive, bool) {
	start, ok := s.RedriveStartedBy(k)
	if !ok {
		return PacedRedrive{}, false
	}
	var rate core.Rate
	done, total := 0, 0
	var last time.Duration // when its last batch was redriven
	found := false
	for j := k; j >= start && !found; j-- {
		evs := s.Step(j).Events
		for i := len(evs) - 1; i >= 0; i-- {
			e := evs[i]
			switch e.Kind {
			case core.EventRedriveDone, core.EventRedriveCancelled:
				if !found && total == 0 {
					return PacedRedrive{}, false
				}
			case core.EventRedriveProgress:
				if total == 0 {
					done, total, last = e.Count, e.Total, e.At
				}
			case core.EventRedriveStarted:
				if e.Rate.N == 0 {
					return PacedRedrive{}, false // all at once: never in progress
				}
				rate = e.Rate
				if total == 0 {
					total, last = e.Total, e.At
				}
				found = true
			}
			if found {
				break
			}
		}
	}
	if !found || done >= total {
		return PacedRedrive{}, false
	}
	now := s.Step(k).Now
	wait := max(0, last+rate.Per-now)
	return PacedRedrive{
		Label:  strconv.Itoa(done) + "/" + strconv.Itoa(total) + " redriven, next batch in " + scenario.FormatDuration(wait),
		Next:   "advance " + scenario.FormatDuration(max(wait, time.Millisecond)),
		Cancel: "redrive cancel",
		Why:    refusedWhileRedriving,
	}, true
}
