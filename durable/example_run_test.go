package durable_test

import (
	"testing"

	"github.com/dagq/dagq/internal/pgtest"
)

// TestExamples runs the package's examples, which have no Output lines
// (they need a database), against a database of their own, and checks what
// they print; without PostgreSQL it is skipped, never passed.
func TestExamples(t *testing.T) {
	for _, ex := range []struct {
		name string
		f    func()
		want string
	}{
		{"Example", Example, "fetch: DEAD\nparse: BLOCKED blocked by fetch\nparse: PENDING\n"},
		{"ExampleWorker", ExampleWorker, "ran: [fetch parse report]\nlint: DEAD permanent failure after 1 attempt: bad config\n"},
	} {
		t.Run(ex.name, func(t *testing.T) {
			t.Setenv("DATABASE_URL", newURL(t))
			if got := pgtest.Output(t, ex.f); got != ex.want {
				t.Errorf("%s printed\n%s\nwant\n%s", ex.name, got, ex.want)
			}
		})
	}
}
