package live

import (
	"context"
	"maps"
	"sync"
	"time"

	"github.com/dagq/dagq/durable"
)

// MinPoll is the shortest time between two reads of the DAGs' summaries:
// at most this many redraws a second reach a page, however busy its DAG.
const MinPoll = 250 * time.Millisecond

// busyShare bounds the poller's load on the database: it waits at least
// busyShare times as long as its last read took before the next one.
const busyShare = 5

// feed is the change feed: one poller for the whole server, reading
// durable.DB.DAGs while anyone listens, and the listeners, each with a
// one-slot mailbox that a change fills (a full mailbox stays full: changes
// coalesce). Memory is O(listeners + DAGs), whatever the rate of change.
type feed struct {
	db   *durable.DB
	max  int           // most listeners at once
	kick chan struct{} // a listener arrived: poll now rather than later

	mu      sync.Mutex
	subs    map[*listener]struct{}
	last    []durable.DAGSummary // the last summaries read, by DAG name order
	lastAt  time.Time
	version int64 // counts the polls that saw a change
	err     error // the last poll's error, nil once one succeeds
}

// listener is one stream's subscription: dag "" hears of every change.
type listener struct {
	dag  string
	mail chan int64 // the version of the change, one slot
}

func newFeed(db *durable.DB, max int) *feed {
	return &feed{db: db, max: max, kick: make(chan struct{}, 1), subs: map[*listener]struct{}{}}
}

// subscribe adds a listener for dag, or reports false when the feed has
// its most listeners already. The caller must unsubscribe it.
func (f *feed) subscribe(dag string) (*listener, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.subs) >= f.max {
		return nil, false
	}
	l := &listener{dag: dag, mail: make(chan int64, 1)}
	f.subs[l] = struct{}{}
	select {
	case f.kick <- struct{}{}:
	default:
	}
	return l, true
}

func (f *feed) unsubscribe(l *listener) {
	f.mu.Lock()
	delete(f.subs, l)
	f.mu.Unlock()
}

// listeners returns how many listen now.
func (f *feed) listeners() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs)
}

// run polls until ctx is done: while nobody listens it waits for a
// listener, else it reads the summaries, tells the listeners of the DAGs
// that changed, and waits max(MinPoll, busyShare × the read's time).
func (f *feed) run(ctx context.Context) {
	for {
		if f.listeners() == 0 {
			select {
			case <-ctx.Done():
				return
			case <-f.kick:
			}
		}
		start := time.Now()
		_, _ = f.poll(ctx) // an error is kept in f.err and answered to whoever reads
		wait := max(MinPoll, busyShare*time.Since(start))
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// poll reads the summaries and announces the DAGs whose summary changed
// since the last read (a DAG that appeared or went is a change of the
// list). It returns the summaries read.
func (f *feed) poll(ctx context.Context) ([]durable.DAGSummary, error) {
	dags, err := f.db.DAGs(ctx)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err != nil {
		f.err = err
		return nil, err
	}
	f.err = nil
	changed := diff(f.last, dags)
	f.last, f.lastAt = dags, time.Now()
	if len(changed) == 0 {
		return dags, nil
	}
	f.version++
	for l := range f.subs {
		if l.dag != "" && !changed[l.dag] {
			continue
		}
		select {
		case l.mail <- f.version:
		default: // a change is waiting to be read already: this one joins it
		}
	}
	return dags, nil
}

// summaries returns the DAGs' summaries no older than MinPoll: the last
// read, or a new one. So the list's routes cost the database at most one
// read per MinPoll, however many pages ask.
func (f *feed) summaries(ctx context.Context) ([]durable.DAGSummary, error) {
	f.mu.Lock()
	if f.err == nil && f.last != nil && time.Since(f.lastAt) < MinPoll {
		dags := f.last
		f.mu.Unlock()
		return dags, nil
	}
	f.mu.Unlock()
	return f.poll(ctx)
}

// diff returns the names of the DAGs whose summaries differ between a and
// b (a DAG that appeared or went is one). Ages are not compared: they
// change with every read. The cost is O(len(a) + len(b)).
func diff(a, b []durable.DAGSummary) map[string]bool {
	out := map[string]bool{}
	before := make(map[string]*durable.DAGSummary, len(a))
	for i := range a {
		before[a[i].DAG] = &a[i]
	}
	for _, y := range b {
		x, ok := before[y.DAG]
		if !ok || x.DLQ != y.DLQ || x.Awaited != y.Awaited || x.Alerting != y.Alerting || !maps.Equal(x.Counts, y.Counts) {
			out[y.DAG] = true
		}
		delete(before, y.DAG)
	}
	for name := range before {
		out[name] = true
	}
	return out
}
