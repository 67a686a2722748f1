package site

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"html"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dagq/dagq/core/scenario"
)

// Options configures the handler. The zero value serves the embedded
// files with the default limits.
type Options struct {
	// Static is the tree of static files, index.html at its root; nil means
	// the files embedded from static/.
	Static fs.FS
	// Limits bound each run of POST /api/run and GET /svg; nil means
	// [DefaultLimits].
	Limits *scenario.Limits
	// RunTimeout is how long one run may take; 0 means [DefaultRunTimeout].
	RunTimeout time.Duration
	// Runs is how many runs may go at once; 0 means [DefaultRuns].
	Runs int
	// RunWait is how long a run waits for its turn before it is refused
	// with 503 and Retry-After; 0 means [DefaultRunWait].
	RunWait time.Duration
	// Origins are the origins ("https://docs.example.com"), besides the
	// site's own, whose pages may POST /api/run from a visitor's browser;
	// "*" allows any.
	Origins []string
}

// New returns the handler of the whole site: the static files and the API
// (see the package documentation for the routes).
func New(opt Options) http.Handler {
	files := opt.Static
	if files == nil {
		sub, err := fs.Sub(embedded, "static")
		if err != nil {
			panic("site: " + err.Error())
		}
		files = sub
	}
	h := &handler{files: files, assets: make(map[string]*asset), runs: newRunGate(opt)}
	mux := http.NewServeMux()
	h.mux = mux
	mux.HandleFunc("GET /healthz", h.healthz)
	mux.HandleFunc("GET /api/scenarios", h.scenarios)
	mux.HandleFunc("GET /api/scenarios/{name}", h.scenario)
	mux.HandleFunc("POST /api/run", h.run)
	mux.HandleFunc("GET /svg", h.svg)
	mux.HandleFunc("GET /rubric", h.rubric)
	mux.HandleFunc("/api/", apiFallback)
	mux.HandleFunc("/", h.static)
	// Load the largest file, and check its compressed bodies, before
	// anyone asks for it. An error is answered when someone does.
	go func() { _, _ = h.asset("main.wasm") }()
	return h
}

type handler struct {
	mux    *http.ServeMux
	files  fs.FS
	mu     sync.Mutex
	assets map[string]*asset // by file name, loaded on first request
	runs   *runGate
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// asset is a static file ready to serve: read, hashed, with its
// precompressed bodies (encoding.go) if it has them and, on first demand,
// gzipped once if it has no gzip body.
type asset struct {
	data     []byte
	ctype    string
	etag     string
	compress bool // worth compressing

	// bodies holds the file in each of codings, nil for a coding it
	// lacks; bodies[gzipIndex] is filled on first demand if need be.
	bodies [len(codings)][]byte
	gzOnce sync.Once
}

// contentTypes maps the extensions of the site's files to their types.
// The mime package is not used: it reads the system's tables.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".wasm": "application/wasm",
	".json": "application/json",
	".svg":  "image/svg+xml",
	".txt":  "text/plain; charset=utf-8",
	".png":  "image/png",
	".ico":  "image/x-icon",
}

// notBuilt lists the files `make wasm` makes; without them the page cannot
// start, and the site says so.
var notBuilt = []string{"main.wasm", "wasm_exec.js"}

// security headers of every HTML page. The playground is meant to be
// embedded, so any site may frame it.
const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *"

func (h *handler) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, "ok\n")
}

// static serves the files; / is index.html.
func (h *handler) static(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		page(w, http.StatusMethodNotAllowed, "Method not allowed", html.EscapeString(r.Method)+" is not allowed here: the site's pages are read with GET.")
		return
	}
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	}
	if !h.built() && (name == "index.html" || isBuildOutput(name)) {
		page(w, http.StatusServiceUnavailable, "The playground is not built yet",
			"main.wasm and wasm_exec.js are made by <code>make wasm</code> (or <code>make run</code>, which builds them and starts the server). Run it, then reload this page.")
		return
	}
	a, err := h.asset(name)
	if err != nil {
		page(w, http.StatusNotFound, "Not found", "There is no <code>"+html.EscapeString("/"+name)+"</code> here. The playground is at <a href=\"/\">/</a>.")
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", a.ctype)
	hd.Set("X-Content-Type-Options", "nosniff")
	// Names carry no version, so caches revalidate each time (a 304 when
	// the ETag still matches).
	hd.Set("Cache-Control", "no-cache")
	if strings.HasPrefix(a.ctype, "text/html") {
		hd.Set("Content-Security-Policy", csp)
	}
	data, etag := a.data, a.etag
	if a.compress {
		hd.Add("Vary", "Accept-Encoding")
		ae := r.Header.Values("Accept-Encoding")
		for i, c := range codings {
			if !accepts(ae, c.name) {
				continue
			}
			body := a.bodies[i]
			if i == gzipIndex {
				body = a.gzipped()
			}
			if body == nil {
				continue
			}
			data = body
			etag = strings.TrimSuffix(a.etag, `"`) + c.suffix + `"`
			hd.Set("Content-Encoding", c.name)
			break
		}
	}
	hd.Set("ETag", etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
}

// isBuildOutput reports whether name is made by `make wasm`.
func isBuildOutput(name string) bool {
	for _, f := range notBuilt {
		if name == f {
			return true
		}
	}
	return false
}

// built reports whether the files `make wasm` makes are there.
func (h *handler) built() bool {
	for _, f := range notBuilt {
		if _, err := fs.Stat(h.files, f); err != nil {
			return false
		}
	}
	return true
}

// asset returns the file name, loading it on first use.
func (h *handler) asset(name string) (*asset, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if a, ok := h.assets[name]; ok {
		return a, nil
	}
	if !fs.ValidPath(name) {
		return nil, fs.ErrNotExist
	}
	if st, err := fs.Stat(h.files, name); err != nil || st.IsDir() {
		return nil, fs.ErrNotExist
	}
	data, err := fs.ReadFile(h.files, name)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	ctype, ok := contentTypes[path.Ext(name)]
	if !ok {
		ctype = "application/octet-stream"
	}
	a := &asset{
		data:     data,
		ctype:    ctype,
		etag:     `"` + hex.EncodeToString(sum[:12]) + `"`,
		compress: !strings.HasPrefix(ctype, "image/png") && !strings.HasPrefix(ctype, "application/octet-stream"),
	}
	if a.compress {
		for i, c := range codings {
			a.bodies[i] = precompressed(h.files, name, c, data)
		}
	}
	h.assets[name] = a
	return a, nil
}

// gzipped returns the file gzipped: its precompressed gzip body, or one
// compressed on the first call.
func (a *asset) gzipped() []byte {
	a.gzOnce.Do(func() {
		if a.bodies[gzipIndex] != nil {
			return
		}
		var b bytes.Buffer
		// The default level: level 9 is four times slower for 1% less.
		zw, _ := gzip.NewWriterLevel(&b, gzip.DefaultCompression)
		zw.Write(a.data)
		zw.Close()
		a.bodies[gzipIndex] = b.Bytes()
	})
	return a.bodies[gzipIndex]
}

// page writes a small HTML page for an error.
func page(w http.ResponseWriter, code int, title, body string) {
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Security-Policy", csp)
	w.WriteHeader(code)
	io.WriteString(w, `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>dagq — `+html.EscapeString(title)+`</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#222}code{background:#f2f2f2;padding:.1em .3em;border-radius:3px}</style>
</head><body><h1>`+html.EscapeString(title)+`</h1><p>`+body+`</p></body></html>
`)
}

// apiFallback answers what no API route matched: a wrong method on a known
// path (405, with Allow) or an unknown path (404), in JSON.
func apiFallback(w http.ResponseWriter, r *http.Request) {
	allow := ""
	switch p := r.URL.Path; {
	case p == "/api/run":
		allow = "POST"
	case p == "/api/scenarios" || strings.HasPrefix(p, "/api/scenarios/") && !strings.Contains(p[len("/api/scenarios/"):], "/"):
		allow = "GET, HEAD"
	}
	switch {
	case allow == "" && strings.HasPrefix(r.URL.Path, "/api/live/"):
		// A live DAG's link opened on a server without a database.
		jsonError(w, http.StatusNotFound, "this server shows no live DAGs (wq serve --db does)")
		return
	case allow == "":
		jsonError(w, http.StatusNotFound, "no such API: "+r.URL.Path)
		return
	}
	w.Header().Set("Allow", allow)
	jsonError(w, http.StatusMethodNotAllowed, r.Method+" is not allowed on "+r.URL.Path+" (allowed: "+allow+")")
}

// scenarioInfo is an entry of GET /api/scenarios.
type scenarioInfo struct {
	Name  string `json:"name"`
	Title string `json:"title"`
}

func (h *handler) scenarios(w http.ResponseWriter, r *http.Request) {
	lib := scenario.Library()
	out := make([]scenarioInfo, len(lib))
	for i, e := range lib {
		out[i] = scenarioInfo{Name: e.Name, Title: e.Title}
	}
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, out)
}

func (h *handler) scenario(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	e, ok := scenario.Lookup(name)
	if !ok {
		jsonError(w, http.StatusNotFound, "no scenario "+strconv.Quote(name))
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/plain; charset=utf-8")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Content-Type-Options", "nosniff")
	sum := sha256.Sum256([]byte(e.Text))
	hd.Set("ETag", `"`+hex.EncodeToString(sum[:12])+`"`)
	http.ServeContent(w, r, "", time.Time{}, strings.NewReader(e.Text))
}

// writeJSON answers v as JSON.
func writeJSON(w http.ResponseWriter, code int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		code, data = http.StatusInternalServerError, []byte(`{"error":"encoding the answer failed"}`)
	}
	hd := w.Header()
	hd.Set("Content-Type", "application/json")
	hd.Set("X-Content-Type-Options", "nosniff")
	if hd.Get("Cache-Control") == "" {
		hd.Set("Cache-Control", "no-store")
	}
	w.WriteHeader(code)
	w.Write(append(data, '\n'))
}

// jsonError answers {"error": msg}.
func jsonError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}
