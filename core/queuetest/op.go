package queuetest

import (
	"fmt"
	"regexp"
	"time"

	"github.com/dagq/dagq/core"
)

// opKind is an operation of the Queue interface.
type opKind uint8

const (
	opSubmit opKind = iota
	opNext
	opHeartbeat
	opComplete
	opFail
	opRedrive
	opAdvance
)

// op is one operation, concrete enough to replay on a fresh queue and to
// run on two queues side by side: a lease is named by what it is to its
// task (current, an earlier one, …), not by its id, which each
// implementation chooses.
type op struct {
	kind      opKind
	task      string
	deps      []string // opSubmit, as given (duplicates kept)
	lease     leaseRef // opHeartbeat, opComplete, opFail
	msg       string   // opFail: the error
	permanent bool     // opFail: wrapped in core.Permanent
	dur       time.Duration

	// The operations only *core.Queue has (see ops_memory.go).
	batch []core.Task   // opBatch: the tasks, in order
	sel   core.Selector // opBulk
	rate  core.Rate     // opBulk
}

// leaseKind says which lease an operation presents.
type leaseKind uint8

const (
	leaseCurrent  leaseKind = iota // the task's current lease; its latest if it is not running
	leaseNth                       // the n-th lease the task was handed out (1-based, wrapping)
	leaseAttempt                   // the latest lease handed out at attempt n
	leaseForged                    // an id never handed out
	leaseOther                     // another running task's lease id under this task's name
	leaseTampered                  // the current lease's id with another attempt number
	leaseExpired                   // the n-th lease of the task that expired (wrapping)
)

// leaseRef names a lease by what it is to its task.
type leaseRef struct {
	kind  leaseKind
	n     int
	other string // leaseOther: whose id
}

var lineRE = regexp.MustCompile(`^[A-Za-z0-9_.:/-]+$`)

// sayName writes a name as the scenario language does, quoted if it
// cannot say it.
func sayName(s string) string {
	if lineRE.MatchString(s) {
		return s
	}
	return fmt.Sprintf("%q", s)
}

func (r leaseRef) suffix() string {
	switch r.kind {
	case leaseNth:
		return fmt.Sprintf("#%d", r.n)
	case leaseAttempt:
		return fmt.Sprintf("@%d", r.n)
	}
	return ""
}

func (r leaseRef) note() string {
	switch r.kind {
	case leaseForged:
		return " # a lease id never handed out"
	case leaseOther:
		return " # " + sayName(r.other) + "'s lease id"
	case leaseTampered:
		return " # the current lease id, another attempt"
	case leaseExpired:
		return fmt.Sprintf(" # expired lease %d of the task", r.n)
	}
	return ""
}

// String writes the operation as the scenario language says it (t#K is
// the K-th lease t was handed out, t@N its latest of attempt N), with what
// the language cannot say as a comment.
func (o op) String() string {
	switch o.kind {
	case opSubmit:
		s := "submit " + sayName(o.task)
		for _, d := range o.deps {
			s += " " + sayName(d)
		}
		return s
	case opNext:
		return "next"
	case opHeartbeat:
		return "heartbeat " + sayName(o.task) + o.lease.suffix() + o.lease.note()
	case opComplete:
		return "complete " + sayName(o.task) + o.lease.suffix() + o.lease.note()
	case opFail:
		cmd := "fail "
		if o.permanent {
			cmd = "fail! "
		}
		return cmd + sayName(o.task) + o.lease.suffix() + " " + o.msg + o.lease.note()
	case opRedrive:
		return "redrive " + sayName(o.task)
	case opAdvance:
		return fmt.Sprintf("advance %v", o.dur)
	}
	return o.memoryString()
}

// lease resolves a leaseRef against the model of one queue: the same
// reference names corresponding leases on two queues that agree.
func (m *model) lease(task string, r leaseRef) core.Lease {
	cur, running := m.current[task]
	hist := m.history[task]
	latest := core.Lease{Task: task}
	if running {
		latest = cur
	} else if len(hist) > 0 {
		latest = hist[len(hist)-1]
	}
	switch r.kind {
	case leaseNth:
		if len(hist) > 0 {
			return hist[(max(r.n, 1)-1)%len(hist)]
		}
	case leaseAttempt:
		for j := len(hist) - 1; j >= 0; j-- {
			if hist[j].Attempt == r.n {
				return hist[j]
			}
		}
	case leaseForged:
		l := latest
		l.ID = m.maxID + 1 + uint64(r.n)
		if l.Attempt == 0 {
			l.Attempt = 1
		}
		return l
	case leaseOther:
		if o, ok := m.current[r.other]; ok && r.other != task {
			l := latest
			l.ID = o.ID
			if l.Attempt == 0 {
				l.Attempt = o.Attempt
			}
			return l
		}
	case leaseTampered:
		l := latest
		l.Attempt++
		return l
	case leaseExpired:
		if x := m.expired[task]; len(x) > 0 {
			return x[max(r.n, 0)%len(x)]
		}
	}
	return latest
}
