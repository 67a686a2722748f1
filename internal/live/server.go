package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dagq/dagq/durable"
)

// Options configures the live routes. The zero value, with a DB, serves
// them read-only (no token can match an empty one).
type Options struct {
	// Token is what a request that changes the queue must carry in its
	// X-Dagq-Token header; "" refuses every such request.
	Token string
	// ReadOnly refuses every request that would change the queue, token
	// or not.
	ReadOnly bool
	// Hosts are the Host headers the server answers (e.g. localhost:8080,
	// 127.0.0.1:8080); none means any.
	Hosts []string
	// Log hears a line for every action taken or refused; nil discards.
	Log io.Writer
	// Streams is how many event streams may be open at once; 0 means
	// [DefaultStreams].
	Streams int
	// Reads is how many reads of a whole DAG (its script) may run at once;
	// more wait a moment, then get 503. 0 means [DefaultReads].
	Reads int
	// Timeout bounds each request's work on the database; 0 means
	// [DefaultTimeout].
	Timeout time.Duration
}

// The defaults of Options.
const (
	DefaultStreams = 64
	DefaultReads   = 2
	DefaultTimeout = 10 * time.Second
)

// TokenHeader is the header that carries the token.
const TokenHeader = "X-Dagq-Token"

// maxBody is the most a POST's JSON body may hold.
const maxBody = 4 << 10

// readWait is how long a read waits for its turn before 503.
const readWait = 2 * time.Second

// server holds the routes' state.
type server struct {
	db    *durable.DB
	opt   Options
	feed  *feed
	reads chan struct{} // a slot per read of a whole DAG
	logMu sync.Mutex
}

// New returns a handler that serves the live routes (see the package
// documentation) and passes every other request to next (the playground's
// site). The change feed's poller runs until ctx is done; so do the event
// streams, which end with it.
func New(ctx context.Context, db *durable.DB, next http.Handler, opt Options) http.Handler {
	if opt.Streams <= 0 {
		opt.Streams = DefaultStreams
	}
	if opt.Reads <= 0 {
		opt.Reads = DefaultReads
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	s := &server{db: db, opt: opt, feed: newFeed(db, opt.Streams), reads: make(chan struct{}, opt.Reads)}
	go s.feed.run(ctx)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /dags", s.listPage)
	mux.HandleFunc("GET /dags/rows", s.listRows)
	mux.HandleFunc("GET /live.js", s.script)
	mux.HandleFunc("GET /api/live/info", s.info)
	mux.HandleFunc("GET /api/live/dags", s.dagsJSON)
	mux.HandleFunc("GET /api/live/events", func(w http.ResponseWriter, r *http.Request) { s.events(ctx, w, r) })
	mux.HandleFunc("GET /api/live/dags/{dag}/state", s.state)
	mux.HandleFunc("GET /api/live/dags/{dag}/script", s.exportScript)
	mux.HandleFunc("GET /api/live/dags/{dag}/tasks/{name}", s.taskDetail)
	mux.HandleFunc("POST /api/live/dags/{dag}/preview", s.preview)
	mux.HandleFunc("POST /api/live/dags/{dag}/redrive", s.mutating(s.redrive))
	mux.HandleFunc("POST /api/live/dags/{dag}/cancel", s.mutating(s.cancel))
	mux.HandleFunc("POST /api/live/dags/{dag}/force", s.mutating(s.force))
	mux.HandleFunc("/api/live/", func(w http.ResponseWriter, r *http.Request) {
		jsonError(w, http.StatusNotFound, "no such API: "+r.Method+" "+r.URL.Path)
	})
	mux.Handle("/", next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r.Host) {
			http.Error(w, "live: this server does not answer for the host "+strconv.Quote(r.Host), http.StatusMisdirectedRequest)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether host is one of Options.Hosts (any when none).
func (s *server) hostAllowed(host string) bool {
	if len(s.opt.Hosts) == 0 {
		return true
	}
	for _, h := range s.opt.Hosts {
		if strings.EqualFold(h, host) {
			return true
		}
	}
	return false
}

// logf writes one line of the action log.
func (s *server) logf(format string, args ...any) {
	if s.opt.Log == nil {
		return
	}
	line := time.Now().UTC().Format("2006-01-02T15:04:05.000Z") + " live: " + fmt.Sprintf(format, args...) + "\n"
	s.logMu.Lock()
	defer s.logMu.Unlock()
	_, _ = io.WriteString(s.opt.Log, line) // a log that cannot be written has no one to tell
}

// dbContext is the request's context bounded by Options.Timeout.
func (s *server) dbContext(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), s.opt.Timeout)
}

// takeRead waits for a read slot (at most readWait) and returns its
// release, or answers 503 and returns nil.
func (s *server) takeRead(w http.ResponseWriter, r *http.Request) func() {
	t := time.NewTimer(readWait)
	defer t.Stop()
	select {
	case s.reads <- struct{}{}:
		return func() { <-s.reads }
	case <-t.C:
	case <-r.Context().Done():
	}
	w.Header().Set("Retry-After", "1")
	jsonError(w, http.StatusServiceUnavailable, "the server is busy reading other DAGs: try again in a moment")
	return nil
}

// readDAG prepares a read of the request's whole DAG: it takes a read slot
// and checks that the DAG exists, answering 503, 404 or the database's
// error itself when not (ok false). done releases the slot and ctx, which
// is bounded by Options.Timeout.
func (s *server) readDAG(w http.ResponseWriter, r *http.Request) (ctx context.Context, dag string, done func(), ok bool) {
	release := s.takeRead(w, r)
	if release == nil {
		return nil, "", nil, false
	}
	ctx, cancel := s.dbContext(r)
	done = func() { cancel(); release() }
	dag = r.PathValue("dag")
	has, err := s.db.HasDAG(ctx, dag)
	if err != nil {
		dbError(w, err)
	} else if !has {
		jsonError(w, http.StatusNotFound, "live: no DAG "+strconv.Quote(dag)+": was it deleted?")
	}
	if err != nil || !has {
		done()
		return nil, "", nil, false
	}
	return ctx, dag, done, true
}

// writeJSON answers v as JSON, never cached.
func writeJSON(w http.ResponseWriter, code int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		code, data = http.StatusInternalServerError, []byte(`{"error":"live: encoding the answer failed"}`)
	}
	hd := w.Header()
	hd.Set("Content-Type", "application/json")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_, _ = w.Write(append(data, '\n'))
}

// jsonError answers {"error": msg}.
func jsonError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

// dbError answers an error of the database: 504 for a read that took too
// long, else 500, with what it says.
func dbError(w http.ResponseWriter, err error) {
	if errors.Is(err, context.DeadlineExceeded) {
		jsonError(w, http.StatusGatewayTimeout, "the database did not answer in time: "+err.Error())
		return
	}
	jsonError(w, http.StatusInternalServerError, err.Error())
}
