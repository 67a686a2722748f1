package core

import "time"

// Stats is what a queue has counted, and the two conditions it is in that
// are not any one task's: for [Queue.Stats].
type Stats struct {
	// Visits is the edges the cycle checks of submits have examined so
	// far: the cost measure of package incremental.
	Visits uint64
	// RedriveVisits is the edges redrives have examined so far, single and
	// bulk: the measure that a bulk redrive of k roots blocking V' tasks
	// costs O(k + V' + E'), not k walks.
	RedriveVisits uint64
	// Alerting: the growth alert is raised, at least Config.Alert.Entries
	// tasks entered the DLQ within the last Config.Alert.Window.
	Alerting bool
	// Redrive is the rate-limited bulk redrive in progress
	// ([Queue.RedriveMatching]); nil if none is.
	Redrive *RedriveJob
}

// Stats returns the queue's counts. O(1), plus the names of a redrive in
// progress.
func (q *Queue) Stats() Stats {
	s := Stats{Visits: q.check.Visits(), RedriveVisits: q.dlqVisits, Alerting: q.alert.on}
	if q.job != nil {
		j := q.jobView(q.job)
		s.Redrive = &j
	}
	return s
}

// TaskInfo is what a queue knows of one submitted task, for [Queue.Info].
type TaskInfo struct {
	State State
	// Deps are its dependencies, as submitted with duplicates dropped.
	Deps []string
	// Attempts is how many times it has been handed out since it was
	// submitted or last redriven.
	Attempts int
	// Timer is when its timer fires: the deadline of a RUNNING task's lease
	// (none without a lease timeout) or the due time of a DELAYED task; 0
	// if it has none.
	Timer time.Duration
	// DeadLetter is its entry in the dead-letter queue when it is DEAD or
	// BLOCKED; nil otherwise.
	DeadLetter *DeadLetter
}

// Info returns what the queue knows of a submitted task; false if it was
// never submitted (a task only named as a dependency has no state yet).
// Its current lease, if RUNNING, is [Queue.Lease]. The cost is O(deps),
// plus its fingerprint if it is DEAD and that is not computed yet.
func (q *Queue) Info(task string) (TaskInfo, bool) {
	v, ok := q.lookup(task)
	if !ok {
		return TaskInfo{}, false
	}
	n := q.nodes.at(v)
	info := TaskInfo{State: n.state.State(), Deps: q.names(q.arena.ints(n.deps)), Attempts: int(n.attempts)}
	info.Timer, _ = q.timerOf(v)
	if q.inDLQ(v) {
		d := q.deadLetter(v)
		info.DeadLetter = &d
	}
	return info, true
}
