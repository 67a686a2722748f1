package playground_test

import (
	"testing"
	"time"

	"github.com/dagq/dagq/internal/playground"
)

// TestChoresJob: a frame of quick play does one job: the step due before
// any chore, except right after a frame that drew one, when a chore left
// goes first; chores in the order follow, tell, minimap; nothing when
// nothing is left.
func TestChoresJob(t *testing.T) {
	t.Parallel()
	all := playground.Chores{Follow: true, Tell: true, Minimap: true}
	tests := []struct {
		name             string
		c                playground.Chores
		stepDue, drewOne bool
		want             playground.Job
	}{
		{"NothingLeftNothingDone", playground.Chores{}, false, false, playground.JobNone},
		{"NothingLeftAfterAStep", playground.Chores{}, false, true, playground.JobNone},
		{"AStepDueIsDrawn", playground.Chores{}, true, false, playground.JobStep},
		{"StepsDueEveryFrameWithNoChores", playground.Chores{}, true, true, playground.JobStep},
		{"TheStepBeforeTheChores", all, true, false, playground.JobStep},
		{"AChoreRightAfterAStep", all, true, true, playground.JobFollow},
		{"FollowFirst", all, false, true, playground.JobFollow},
		{"ThenTell", playground.Chores{Tell: true, Minimap: true}, false, false, playground.JobTell},
		{"ThenTheMinimap", playground.Chores{Minimap: true}, false, false, playground.JobMinimap},
		{"TellRightAfterAStep", playground.Chores{Tell: true}, true, true, playground.JobTell},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.Job(tt.stepDue, tt.drewOne); got != tt.want {
				t.Fatalf("%+v.Job(%v, %v) = %v, want %v", tt.c, tt.stepDue, tt.drewOne, got, tt.want)
			}
		})
	}
}

// TestChoresDone: a chore done is gone, the others stay, and a frame
// that drew a step or nothing leaves the chores as they were.
func TestChoresDone(t *testing.T) {
	t.Parallel()
	all := playground.Chores{Follow: true, Tell: true, Minimap: true}
	for _, tt := range []struct {
		job  playground.Job
		want playground.Chores
	}{
		{playground.JobFollow, playground.Chores{Tell: true, Minimap: true}},
		{playground.JobTell, playground.Chores{Follow: true, Minimap: true}},
		{playground.JobMinimap, playground.Chores{Follow: true, Tell: true}},
		{playground.JobStep, all},
		{playground.JobNone, all},
	} {
		if got := all.Done(tt.job); got != tt.want {
			t.Errorf("Done(%v) = %+v, want %+v", tt.job, got, tt.want)
		}
	}
	if !(playground.Chores{}).Empty() || all.Empty() || (playground.Chores{Minimap: true}).Empty() {
		t.Error("Empty is true only with no chore left")
	}
}

// TestChoresNeverStarve: with a step due at every frame, as on a machine
// whose frames are slower than the steps, every chore is still done
// within twice as many frames as there are chores, and at least every
// other frame draws a step.
func TestChoresNeverStarve(t *testing.T) {
	t.Parallel()
	c := playground.Chores{Follow: true, Tell: true, Minimap: true}
	drew, steps := false, 0
	for f := 0; f < 6; f++ {
		job := c.Job(true, drew)
		drew = job == playground.JobStep
		if drew {
			steps++
		}
		c = c.Done(job)
	}
	if !c.Empty() {
		t.Errorf("after 6 frames each with a step due, chores %+v are left", c)
	}
	if steps != 3 {
		t.Errorf("6 frames each with a step due drew %d steps; want 3", steps)
	}
}

// TestFramesNext: quick play's frames on a quiet machine draw every step
// due, a chore in a frame between steps and nothing in the frame after a
// follow or a tell; a frame that comes late leaves the next
// RestAfterLate frames empty, a step due among them too.
func TestFramesNext(t *testing.T) {
	t.Parallel()
	const frame = 16666 * time.Microsecond
	type want struct {
		at      time.Duration
		stepDue bool
		job     playground.Job
		going   bool // the chore done goes on in the next frame (a tell's part but the last)
	}
	tests := []struct {
		name   string
		chores playground.Chores
		frames []want
	}{
		{"QuietEveryStepDrawn", playground.Chores{}, []want{
			{0, true, playground.JobStep, false}, {frame, false, playground.JobNone, false}, {2 * frame, false, playground.JobNone, false},
			{3 * frame, true, playground.JobStep, false},
		}},
		{"ChoresBetweenStepsAndABreathAfter", playground.Chores{Follow: true, Tell: true, Minimap: true}, []want{
			{0, true, playground.JobStep, false}, {frame, false, playground.JobFollow, false}, {2 * frame, false, playground.JobNone, false},
			{3 * frame, true, playground.JobStep, false}, {4 * frame, false, playground.JobTell, false}, {5 * frame, false, playground.JobNone, false},
			{6 * frame, false, playground.JobMinimap, false}, {7 * frame, false, playground.JobNone, false},
		}},
		{"ALateFrameRests", playground.Chores{Minimap: true}, []want{
			{0, true, playground.JobStep, false}, {40 * time.Millisecond, true, playground.JobNone, false},
			{40*time.Millisecond + frame, true, playground.JobNone, false},
			{40*time.Millisecond + 2*frame, true, playground.JobStep, false},
		}},
		{"ATellInPartsHoldsTheSteps", playground.Chores{Tell: true}, []want{
			{0, true, playground.JobStep, false}, {frame, true, playground.JobTell, true},
			{2 * frame, true, playground.JobTell, true}, {3 * frame, true, playground.JobTell, false},
			{4 * frame, true, playground.JobNone, false}, {5 * frame, true, playground.JobStep, false},
		}},
		{"ATellGoesOnAfterARest", playground.Chores{Tell: true}, []want{
			{0, true, playground.JobStep, false}, {frame, true, playground.JobTell, true},
			{frame + 30*time.Millisecond, true, playground.JobNone, false},
			{2*frame + 30*time.Millisecond, true, playground.JobNone, false},
			{3*frame + 30*time.Millisecond, true, playground.JobTell, false},
			{4*frame + 30*time.Millisecond, true, playground.JobNone, false},
			{5*frame + 30*time.Millisecond, true, playground.JobStep, false},
		}},
		{"AFrameOfExactlyLateFrameIsOnTime", playground.Chores{}, []want{
			{0, true, playground.JobStep, false}, {playground.LateFrame, true, playground.JobStep, false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f playground.Frames
			f.Chores = tt.chores
			for i, w := range tt.frames {
				got := f.Next(w.at, w.stepDue)
				if got != w.job {
					t.Fatalf("frame %d at %v (step due %v): job %v, want %v", i, w.at, w.stepDue, got, w.job)
				}
				if !w.going {
					f.Chores = f.Done(got)
				}
			}
		})
	}
}
