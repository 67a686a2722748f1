package live

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"time"
)

// keepAlive is how often an idle event stream sends a comment, so that
// proxies and the browser keep it open and a dead client is found.
const keepAlive = 15 * time.Second

// writeWindow is how long one write to an event stream may take: a page
// that stops reading is dropped then, its memory with it.
const writeWindow = 10 * time.Second

// events is GET /api/live/events[?dag=D]: a stream of server-sent events,
// "changed" (its data the feed's version) whenever D changed, or for no
// dag, whenever any DAG did; at most one per poll (see MinPoll). It ends
// when the client goes, the server stops (ctx), or a write stalls.
func (s *server) events(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	l, ok := s.feed.subscribe(r.URL.Query().Get("dag"))
	if !ok {
		w.Header().Set("Retry-After", "5")
		jsonError(w, http.StatusServiceUnavailable, "live: too many pages are open on this server ("+strconv.Itoa(s.opt.Streams)+"): close some, or start wq serve with more --streams")
		return
	}
	defer s.feed.unsubscribe(l)
	rc := http.NewResponseController(w)
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Content-Type-Options", "nosniff")
	write := func(msg string) bool {
		if err := rc.SetWriteDeadline(time.Now().Add(writeWindow)); err != nil && err != http.ErrNotSupported {
			return false
		}
		if _, err := io.WriteString(w, msg); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	// The browser reconnects after retry ms should the stream break.
	if !write("retry: 2000\n\n") {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.Context().Done():
			return
		case v := <-l.mail:
			if !write("event: changed\ndata: " + strconv.FormatInt(v, 10) + "\n\n") {
				return
			}
		case <-tick.C:
			if !write(": alive\n\n") {
				return
			}
		}
	}
}
