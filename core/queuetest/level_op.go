package queuetest

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// opRedriveMatching is a bulk redrive of the dead tasks whose error
// contains a text (L6).
const opRedriveMatching = opAdvance + 1

// levelOp is one operation of the levelled suite, in the scenario
// language's terms, so that a sequence prints as a script the playground
// runs: a lease is the task's current one (attempt 0) or its latest of an
// attempt (task@N), as the language names them.
type levelOp struct {
	kind      opKind
	task      string
	deps      []string      // submit
	attempt   int           // heartbeat, complete, fail: 0 the current lease, N the latest of attempt N
	msg       string        // fail: the error; redrive matching: the text
	permanent bool          // fail!: core.Permanent
	dur       time.Duration // advance
}

// String writes the operation as a line of the scenario language.
func (o levelOp) String() string {
	lease := o.task
	if o.attempt > 0 {
		lease += "@" + strconv.Itoa(o.attempt)
	}
	switch o.kind {
	case opSubmit:
		return strings.Join(append([]string{"submit", o.task}, o.deps...), " ")
	case opNext:
		return "next"
	case opHeartbeat:
		return "heartbeat " + lease
	case opComplete:
		return "complete " + lease
	case opFail:
		cmd := "fail "
		if o.permanent {
			cmd = "fail! "
		}
		return strings.TrimSpace(cmd + lease + " " + o.msg)
	case opRedrive:
		return "redrive " + o.task
	case opAdvance:
		return "advance " + o.dur.String()
	case opRedriveMatching:
		return "redrive matching " + o.msg
	}
	return fmt.Sprintf("op(%d)", o.kind)
}

// parseLevelOp reads a line as String writes it.
func parseLevelOp(line string) (levelOp, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return levelOp{}, fmt.Errorf("queuetest: an empty line")
	}
	lease := func(o *levelOp) error {
		if len(f) < 2 {
			return fmt.Errorf("queuetest: %q: no task", line)
		}
		o.task = f[1]
		if t, n, ok := strings.Cut(f[1], "@"); ok {
			k, err := strconv.Atoi(n)
			if err != nil || k < 1 {
				return fmt.Errorf("queuetest: %q: attempt %q", line, n)
			}
			o.task, o.attempt = t, k
		}
		return nil
	}
	var o levelOp
	var err error
	switch f[0] {
	case "submit":
		if len(f) < 2 {
			return o, fmt.Errorf("queuetest: %q: no task", line)
		}
		o = levelOp{kind: opSubmit, task: f[1], deps: f[2:]}
	case "next":
		o.kind = opNext
	case "heartbeat":
		o.kind = opHeartbeat
		err = lease(&o)
	case "complete":
		o.kind = opComplete
		err = lease(&o)
	case "fail", "fail!":
		o = levelOp{kind: opFail, permanent: f[0] == "fail!"}
		err = lease(&o)
		if len(f) > 2 {
			o.msg = strings.Join(f[2:], " ")
		}
	case "redrive":
		if len(f) > 2 && f[1] == "matching" {
			o = levelOp{kind: opRedriveMatching, msg: strings.Join(f[2:], " ")}
		} else if len(f) == 2 {
			o = levelOp{kind: opRedrive, task: f[1]}
		} else {
			err = fmt.Errorf("queuetest: %q: want redrive TASK or redrive matching TEXT", line)
		}
	case "advance":
		if len(f) != 2 {
			return o, fmt.Errorf("queuetest: %q: want advance DURATION", line)
		}
		o.kind = opAdvance
		o.dur, err = time.ParseDuration(f[1])
	default:
		err = fmt.Errorf("queuetest: %q: unknown command", line)
	}
	return o, err
}

// level returns the lowest level that has the operation.
func (o levelOp) level() Level {
	switch {
	case o.kind == opRedrive:
		return L5
	case o.kind == opHeartbeat, o.kind == opAdvance, o.kind == opRedriveMatching, o.attempt > 0, o.permanent:
		return L6
	}
	return L4
}
