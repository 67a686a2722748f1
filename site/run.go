package site

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/dagq/dagq/core/scenario"
)

// MaxScript is the largest script POST /api/run accepts, in bytes.
const MaxScript = 1 << 20

// DefaultLimits bound each run of POST /api/run unless [Options.Limits]
// says otherwise. With a script of at most [MaxScript] bytes they keep a
// run's memory to tens of megabytes and its response to 64 MiB, whatever
// the script does.
var DefaultLimits = scenario.Limits{
	Tasks:  100_000,
	Steps:  100_000,
	Events: 2_000_000,
	Output: 64 << 20,
}

// The defaults of [Options].
const (
	DefaultRunTimeout = 4 * time.Second // how long one run may take
	DefaultRunWait    = 2 * time.Second // how long a run waits for its turn
)

// DefaultRuns is how many runs go at once by default: half the processors
// (at least one), so that a server busy with runs still has a processor
// free to answer everything else at once.
var DefaultRuns = max(1, runtime.GOMAXPROCS(0)/2)

// runGate lets a few runs go at once; the others wait their turn for a
// while, then are refused.
type runGate struct {
	slots   chan struct{}
	wait    time.Duration
	timeout time.Duration
	limits  scenario.Limits
	origins []string
}

func newRunGate(opt Options) *runGate {
	g := &runGate{
		slots:   make(chan struct{}, orDefault(opt.Runs, DefaultRuns)),
		wait:    orDefault(opt.RunWait, DefaultRunWait),
		timeout: orDefault(opt.RunTimeout, DefaultRunTimeout),
		limits:  DefaultLimits,
		origins: opt.Origins,
	}
	if opt.Limits != nil {
		g.limits = *opt.Limits
	}
	return g
}

// orDefault returns v, or def when v is not above zero.
func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// enter waits for a turn, at most g.wait; false if none came or ctx ended.
// A true enter must be followed by leave.
func (g *runGate) enter(ctx context.Context) bool {
	select {
	case g.slots <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

func (g *runGate) leave() { <-g.slots }

// busy answers a request that found no turn: 503 with Retry-After, or
// nothing for a client that has left.
func (g *runGate) busy(w http.ResponseWriter, r *http.Request) {
	if r.Context().Err() != nil {
		return
	}
	wait := strconv.Itoa(int(max(1, g.wait.Round(time.Second)/time.Second)))
	w.Header().Set("Retry-After", wait)
	jsonError(w, http.StatusServiceUnavailable, fmt.Sprintf("busy: every run slot (%d) is taken; try again in %s s", cap(g.slots), wait))
}

// badScript answers a script that cannot run: 400 with {error,line,col}
// for a syntax error, or {error} (an unknown strategy, say).
func badScript(w http.ResponseWriter, err error) {
	var se *scenario.SyntaxError
	if errors.As(err, &se) {
		writeJSON(w, http.StatusBadRequest, syntaxError{Error: se.Msg, Line: se.Line, Col: se.Col})
		return
	}
	jsonError(w, http.StatusBadRequest, strings.TrimPrefix(err.Error(), "scenario: "))
}

// allowsOrigin reports whether a page at origin (an Origin header) may run
// scripts on host (the request's Host): a page of the site itself, or of
// one of the configured origins.
func (g *runGate) allowsOrigin(origin, host string) bool {
	for _, o := range g.origins {
		if o == "*" || strings.EqualFold(o, origin) {
			return true
		}
	}
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, host)
}

// plainText reports whether a Content-Type is text/plain in UTF-8 (or
// ASCII, or with no charset).
func plainText(ctype string) bool {
	mt, params, err := mime.ParseMediaType(ctype)
	if err != nil || mt != "text/plain" {
		return false
	}
	cs := strings.ToLower(params["charset"])
	return cs == "" || cs == "utf-8" || cs == "us-ascii"
}

// syntaxError is the answer to a script that does not parse.
type syntaxError struct {
	Error string `json:"error"`
	Line  int    `json:"line"`
	Col   int    `json:"col"`
}

// run is POST /api/run: it runs the script in the body and streams its
// JSON-lines trace as it runs, gzip-compressed when the client accepts it
// (a trace repeats every task's state on every line, so it compresses
// well).
//
// What a run may cost is bounded: the body by MaxScript, the run by the
// gate's limits and timeout and by the request's context (a client that
// leaves stops it), the runs at once by the gate. A run stopped by a limit
// ends its trace with a line that says which (see scenario.WriteJSON), and
// the Dagq-Stopped trailer says why any run stopped early.
func (h *handler) run(w http.ResponseWriter, r *http.Request) {
	g := h.runs
	if origin := r.Header.Get("Origin"); origin != "" && !g.allowsOrigin(origin, r.Host) {
		jsonError(w, http.StatusForbidden, "scripts run here for this site's own pages only, not for "+strconv.Quote(clip(origin)))
		return
	}
	if ct := r.Header.Get("Content-Type"); !plainText(ct) {
		jsonError(w, http.StatusUnsupportedMediaType, "send the script as text/plain; charset=utf-8 (the Content-Type was "+strconv.Quote(clip(ct))+")")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxScript))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			jsonError(w, http.StatusRequestEntityTooLarge, "the script is larger than "+strconv.Itoa(MaxScript)+" bytes")
			return
		}
		jsonError(w, http.StatusBadRequest, "reading the script: "+err.Error())
		return
	}
	if !g.enter(r.Context()) {
		g.busy(w, r)
		return
	}
	defer g.leave()

	stream, err := scenario.NewStream(string(body), scenario.Options{Strategy: r.URL.Query().Get("strategy")})
	if err != nil {
		badScript(w, err)
		return
	}
	ctx, cancel := context.WithTimeoutCause(r.Context(), g.timeout,
		fmt.Errorf("the run took longer than its time limit of %v", g.timeout))
	defer cancel()

	hd := w.Header()
	hd.Set("Content-Type", "application/x-ndjson; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Vary", "Accept-Encoding")
	hd.Set("Trailer", "Dagq-Stopped")
	var out io.Writer = w
	var zw *gzip.Writer
	if accepts(r.Header.Values("Accept-Encoding"), "gzip") {
		hd.Set("Content-Encoding", "gzip")
		zw, _ = gzip.NewWriterLevel(w, gzip.BestSpeed)
		out = zw
	}
	runErr := stream.Run(ctx, out, scenario.JSON, g.limits)
	if zw != nil {
		zw.Close()
	}
	var le *scenario.LimitError
	var ee *scenario.ExpectError
	if errors.As(runErr, &le) || errors.As(runErr, &ee) {
		hd.Set("Dagq-Stopped", runErr.Error())
	}
}

// clip returns at most the first 40 bytes of s, for echoing input in an
// error.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
