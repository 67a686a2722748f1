package core

import "time"

// The reads of one task and of the queue that the tests of package core make
// most often, as the methods they were before [Queue.Info] and
// [Queue.Stats] gathered them.

func (q *Queue) attemptsOf(task string) int {
	info, _ := q.Info(task)
	return info.Attempts
}

func (q *Queue) depsOf(task string) []string {
	info, _ := q.Info(task)
	return info.Deps
}

func (q *Queue) deadLetterOf(task string) (DeadLetter, bool) {
	info, ok := q.Info(task)
	if !ok || info.DeadLetter == nil {
		return DeadLetter{}, false
	}
	return *info.DeadLetter, true
}

func (q *Queue) timerAt(task string) (time.Duration, bool) {
	info, _ := q.Info(task)
	return info.Timer, info.Timer != 0
}

func (q *Queue) redriving() (RedriveJob, bool) {
	j := q.Stats().Redrive
	if j == nil {
		return RedriveJob{}, false
	}
	return *j, true
}

func (q *Queue) alerting() bool { return q.Stats().Alerting }

// advanceTo moves the clock to t, refusing a t before Now as Advance
// refuses a negative duration.
func (q *Queue) advanceTo(t time.Duration) error { return q.Advance(t - q.Now()) }
