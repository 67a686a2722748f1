package durable

import (
	"sync"

	"github.com/dagq/dagq/core"
)

// outbox delivers the events of committed operations in order, as core
// does: an operation that OnEvent calls appends its events behind the ones
// waiting, and the loop already running delivers them, so OnEvent is never
// entered again while it runs and events arrive in the order of their
// operations.
type outbox struct {
	mu         sync.Mutex
	waiting    []pending
	delivering bool
}

// pending is an event waiting for delivery, with where it goes.
type pending struct {
	e       core.Event
	deliver func(core.Event)
}

// send queues events and, unless a delivery loop is running, delivers
// everything waiting to deliver.
func (o *outbox) send(events []core.Event, deliver func(core.Event)) {
	if deliver == nil || len(events) == 0 {
		return
	}
	o.mu.Lock()
	for _, e := range events {
		o.waiting = append(o.waiting, pending{e, deliver})
	}
	if o.delivering {
		o.mu.Unlock()
		return
	}
	o.delivering = true
	defer func() {
		o.mu.Lock()
		o.delivering = false
		o.mu.Unlock()
	}()
	for len(o.waiting) > 0 {
		p := o.waiting[0]
		o.waiting = o.waiting[1:]
		o.mu.Unlock()
		p.deliver(p.e)
		o.mu.Lock()
	}
	o.mu.Unlock()
}
