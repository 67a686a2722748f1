package playground

import (
	"time"

	"github.com/dagq/dagq/core"
)

// Animation timing: the state changes of one step are drawn one after
// another, nearest first, Stagger apart; a step with many changes is
// squeezed into WaveMax. Changes due within one Frame are drawn together.
const (
	Stagger = 80 * time.Millisecond
	WaveMax = 1500 * time.Millisecond
	Frame   = 16 * time.Millisecond
	// Flash is how long a cycle or a wave stays named over the drawing.
	Flash = 2600 * time.Millisecond
)

// Batch is a group of a step's events drawn together, At after the step
// began.
type Batch struct {
	At     time.Duration
	Events []core.Event
}

// Schedule returns when to draw each event of a step stepped onto, in
// batches, and when the animation is over (then the whole step is drawn as
// it ends, whatever was skipped). Rejected events draw nothing.
func Schedule(events []core.Event) (batches []Batch, done time.Duration) {
	gap := Stagger
	if n := time.Duration(len(events)); n*gap > WaveMax {
		gap = WaveMax / n
	}
	for i, e := range events {
		if e.Kind == core.EventRejected {
			continue
		}
		at := time.Duration(i) * gap
		if len(batches) == 0 || at-batches[len(batches)-1].At >= Frame {
			batches = append(batches, Batch{At: at})
		}
		b := &batches[len(batches)-1]
		b.Events = append(b.Events, e)
	}
	return batches, time.Duration(len(events))*gap + Frame
}

// PulseMost is the most state changes a step may make for each task it
// changes to flash ([Pulse]). A step that changes more (wide-1000's
// download releasing a thousand shards) only changes colours, one batch
// after another: a thousand flashes at once would restyle a thousand
// tasks on every frame for as long as they last.
const PulseMost = 60

// Pulses reports whether the tasks a step changes flash, its events
// being events: not when there are more than PulseMost.
func Pulses(events []core.Event) bool { return len(events) <= PulseMost }

// Pulse returns the class that makes a task flash for an event, saying
// what kind of change it was; "" for none.
func Pulse(e core.Event) string {
	switch e.Kind {
	case core.EventDead:
		return "die"
	case core.EventBlocked, core.EventRerooted:
		return "wave"
	case core.EventUnblocked, core.EventRedriven:
		return "release"
	case core.EventRetried:
		return "retry"
	case core.EventSubmitted, core.EventRejected:
		return ""
	}
	return "pulse"
}
