package durable

import (
	"fmt"

	"github.com/dagq/dagq/core"
)

// The states of a task are core's, stored as their names in
// dagq_tasks.state; "" is a name known only as a dependency. allowed is
// core's state table: every change of state this package makes is one of
// these, checked by [checkMove] in the one place each kind of change is
// written, so the durable queue's transitions are core's.
var allowed = map[core.State][]core.State{
	"":             {core.Pending, core.Ready, core.Blocked},
	core.Pending:   {core.Ready, core.Blocked},
	core.Ready:     {core.Running},
	core.Running:   {core.Succeeded, core.Ready, core.Delayed, core.Dead},
	core.Delayed:   {core.Ready},
	core.Dead:      {core.Ready},
	core.Blocked:   {core.Pending, core.Blocked},
	core.Succeeded: nil,
}

// checkMove panics on a change core's state table forbids: a bug here.
func checkMove(task string, from, to core.State) {
	for _, s := range allowed[from] {
		if s == to {
			return
		}
	}
	panic(fmt.Sprintf("durable: %s cannot go from %q to %q", task, from, to))
}

// inLine numbers the names of the array $2 from the sequence dagq_line in
// the array's order, as rows (n, seq): the places of tasks that join the
// READY line or the DLQ together, nearest first. It is a MATERIALIZED
// CTE's body, so that each name is numbered once, in order, however the
// UPDATE that uses it is joined.
const inLine = `SELECT n, nextval('dagq_line') AS seq FROM unnest($2::text[]) WITH ORDINALITY AS u(n, i) ORDER BY i`
