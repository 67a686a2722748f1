package playground

// Job is the one piece of work a frame of play too quick to animate does
// (see Chores.Job). On a loaded machine a frame's cost is what decides
// whether it is late: the work of a step is spread over the frames
// between steps, so that no frame both draws a step and rewrites the
// page's text, scrolls the drawing or repaints the minimap.
type Job int

const (
	JobNone    Job = iota // nothing to do: the frame costs the page nothing
	JobStep               // draw the step due, and only that
	JobFollow             // bring the tasks of the step drawn into view (Pace.Follows)
	JobTell               // tell the step drawn in the page's text (Pace.Tells)
	JobMinimap            // draw the minimap anew for the steps drawn
)

// Chores is what play too quick to animate has left to do for the steps
// it drew: each is done in a frame of its own, after the step.
type Chores struct {
	Follow, Tell, Minimap bool
}

// Job returns what a frame does: the step due, if one is; else the first
// chore left, in the order Follow, Tell, Minimap; else nothing. The one
// exception keeps the chores from waiting for ever when every frame has a
// step due (frames slower than the steps): a frame right after one that
// drew a step does a chore first. Done with what it returns, the caller
// clears that chore (or, for JobStep, adds the step's chores). The cost is
// O(1).
func (c Chores) Job(stepDue, lastDrewStep bool) Job {
	chore := JobNone
	switch {
	case c.Follow:
		chore = JobFollow
	case c.Tell:
		chore = JobTell
	case c.Minimap:
		chore = JobMinimap
	}
	if stepDue && (chore == JobNone || !lastDrewStep) {
		return JobStep
	}
	return chore
}

// Done returns the chores left once a frame has done job.
func (c Chores) Done(job Job) Chores {
	switch job {
	case JobFollow:
		c.Follow = false
	case JobTell:
		c.Tell = false
	case JobMinimap:
		c.Minimap = false
	}
	return c
}

// Empty reports whether no chore is left.
func (c Chores) Empty() bool { return c == Chores{} }
