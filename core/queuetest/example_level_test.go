package queuetest_test

import (
	"errors"
	"fmt"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/queuetest"
)

// notYet is a candidate's queue before the first line of it is written.
type notYet struct{}

func (*notYet) Submit(task string, deps ...string) error { return errors.New("not implemented") }
func (*notYet) Next() (core.Lease, bool)                 { return core.Lease{}, false }
func (*notYet) Complete(l core.Lease) error              { return errors.New("not implemented") }
func (*notYet) Fail(l core.Lease, err error) error       { return errors.New("not implemented") }
func (*notYet) Status(task string) (core.State, bool)    { return "", false }

// A candidate's test runs the suite at their level, with a function that
// opens a fresh queue:
//
//	func TestQueue(t *testing.T) {
//		queuetest.RunLevel(t, queuetest.L4, func(s queuetest.Settings) *Queue { return New(s.MaxAttempts) })
//	}
//
// CheckLevel is the same without a test. A queue not written yet breaks
// the first rule of L4, and the failure says which, on the smallest script
// that shows it, with what dagq's queue does instead.
func ExampleCheckLevel() {
	err := queuetest.CheckLevel(queuetest.L4, func(queuetest.Settings) *notYet { return &notYet{} })
	var f *queuetest.Failure
	if errors.As(err, &f) {
		fmt.Println(f.Test, "—", f.Rule)
		fmt.Print(f.Script)
		for i := range f.Got {
			fmt.Printf("yours: %s; dagq: %s\n", f.Got[i], f.Want[i])
		}
	}
	// Output:
	// L4/ReadyAtOnce — A task without dependencies is READY at once.
	// attempts 3
	// submit a
	// expect a READY
	// yours: refused: not implemented; dagq: accepted
	// yours: Status("a") = not submitted; dagq: a is READY
}
