package live

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
	"github.com/dagq/dagq/durable"
)

//go:embed static/live.js
var static embed.FS

// Row is one DAG of the list as the page shows it: durable.DAGSummary's
// fields, formatted. The page shows, after the name, what an operator
// called at night looks at first (the DLQ, how long READY tasks wait),
// then the counts by state, so that a phone's screen shows them first.
type Row struct {
	DAG    string
	Href   string // the live view: /?live=DAG
	Counts []Count
	Total  int
	DLQ    int
	Alert  bool   // the DLQ growth alert is raised
	Age    string // "3h2m"
	Oldest string // how long the oldest READY task has waited; "" if none is READY
	// Stuck is set when READY tasks have waited over StuckAfter: nobody
	// takes them (no worker runs, or all are busy).
	Stuck bool
}

// Count is a state's count in a row.
type Count struct {
	State core.State
	N     int
	Style template.CSS // its colours, as the drawing's
}

// StuckAfter is how long a READY task may wait before its row says the
// DAG is stuck.
const StuckAfter = time.Minute

// Rows turns the summaries into the list's rows, in their order. The
// cost is O(DAGs × states).
func Rows(dags []durable.DAGSummary) []Row {
	out := make([]Row, 0, len(dags))
	for _, d := range dags {
		r := Row{DAG: d.DAG, Href: "/?live=" + url.QueryEscape(d.DAG), DLQ: d.DLQ, Alert: d.Alerting, Age: short(d.Age)}
		for _, st := range core.States() {
			n := d.Counts[st]
			r.Total += n
			s := render.StyleOf(st)
			r.Counts = append(r.Counts, Count{State: st, N: n,
				Style: template.CSS("background:" + s.Fill + ";border-color:" + s.Stroke + ";color:" + s.Text)})
		}
		if d.Counts[core.Ready] > 0 {
			r.Oldest = short(d.OldestReady)
			r.Stuck = d.OldestReady > StuckAfter
		}
		out = append(out, r)
	}
	return out
}

// short writes a duration to the second ("2m3s"), or to the minute past
// an hour ("5h12m").
func short(d time.Duration) string {
	if d >= time.Hour {
		d = d.Round(time.Minute)
		s := d.String()
		return s[:len(s)-2] // drop "0s"
	}
	return d.Round(time.Second).String()
}

var pages = template.Must(template.New("list").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>dagq — live DAGs</title>
<link rel="icon" href="/favicon.svg">
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:baseline;padding:.8rem 1rem;background:#fff;border-bottom:1px solid #ddd}
h1{font-size:1.2rem;margin:0}
#status{font-size:.9rem;color:#555}
#status[data-live="1"]::before{content:"● ";color:#009e73}
#mode{font-size:.9rem;padding:.15rem .5rem;border-radius:4px;background:#fff3cd;color:#5c4400;border:1px solid #e0c060}
#mode[data-can-act="true"]{background:#e6f4ea;color:#1e4d2b;border-color:#8cc79a}
main{padding:1rem}
.wrap{overflow-x:auto;background:#fff;border:1px solid #ddd;border-radius:6px}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:.4rem .6rem;text-align:right;white-space:nowrap;border-bottom:1px solid #eee}
th:first-child,td:first-child{text-align:left;position:sticky;left:0;background:#fff}
th{font-size:.75rem;letter-spacing:.02em;color:#555;font-weight:600}
td.n span{display:inline-block;min-width:2.2em;padding:0 .3em;border:1px solid;border-radius:3px}
td.n.zero span{opacity:.35}
tr.alert td:first-child{box-shadow:inset 4px 0 #d55e00}
.flag{font-size:.8rem;font-weight:600;padding:0 .35em;border-radius:3px;margin-left:.4em}
.flag.alert{background:#d55e00;color:#fff}
.flag.stuck{background:#fff3cd;color:#5c4400;border:1px solid #e0c060}
a{color:#0b57d0}
td.dlq{font-weight:600}
p.empty{padding:1rem;margin:0;color:#555}
</style></head>
<body data-page="dags">
<header><h1>Live DAGs</h1><span id="status">connecting…</span><span id="mode" data-can-act="false"></span></header>
<main><div class="wrap"><table><thead><tr><th>DAG</th><th>DLQ</th><th>OLDEST READY</th>{{range .States}}<th>{{.}}</th>{{end}}<th>AGE</th></tr></thead>
<tbody id="rows">{{template "rows" .Rows}}</tbody></table></div></main>
<script src="/live.js"></script>
</body></html>
{{define "rows"}}{{if not .}}<tr><td colspan="11"><p class="empty">No DAGs in this database yet.</p></td></tr>{{end}}{{range .}}<tr data-dag="{{.DAG}}"{{if .Alert}} class="alert"{{end}}>
<td><a href="{{.Href}}">{{.DAG}}</a>{{if .Alert}}<span class="flag alert" title="The DLQ grew past its alert's threshold within its window">DLQ alert</span>{{end}}{{if .Stuck}}<span class="flag stuck" title="READY tasks have waited over a minute: are workers running?">stuck</span>{{end}}</td>
<td class="dlq">{{.DLQ}}</td><td class="oldest">{{if .Oldest}}{{.Oldest}}{{else}}—{{end}}</td>
{{range .Counts}}<td class="n{{if eq .N 0}} zero{{end}}" data-state="{{.State}}"><span style="{{.Style}}">{{.N}}</span></td>{{end}}
<td>{{.Age}}</td></tr>
{{end}}{{end}}`))

// listPage is GET /dags: the whole page.
func (s *server) listPage(w http.ResponseWriter, r *http.Request) {
	s.renderList(w, r, "list")
}

// listRows is GET /dags/rows: the table's rows alone, which the page swaps
// in when the events say a DAG changed.
func (s *server) listRows(w http.ResponseWriter, r *http.Request) {
	s.renderList(w, r, "rows")
}

func (s *server) renderList(w http.ResponseWriter, r *http.Request, name string) {
	ctx, cancel := s.dbContext(r)
	defer cancel()
	dags, err := s.feed.summaries(ctx)
	if err != nil {
		http.Error(w, "live: reading the DAGs: "+err.Error(), http.StatusInternalServerError)
		return
	}
	data := struct {
		States []core.State
		Rows   []Row
	}{core.States(), Rows(dags)}
	var b bytes.Buffer
	var v any = data
	if name == "rows" {
		v = data.Rows
	}
	if err := pages.ExecuteTemplate(&b, name, v); err != nil {
		http.Error(w, "live: "+err.Error(), http.StatusInternalServerError)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	_, _ = w.Write(b.Bytes())
}

// dagsJSON is GET /api/live/dags: the summaries as JSON.
func (s *server) dagsJSON(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := s.dbContext(r)
	defer cancel()
	dags, err := s.feed.summaries(ctx)
	if err != nil {
		dbError(w, err)
		return
	}
	type dagJSON struct {
		DAG           string         `json:"dag"`
		Counts        map[string]int `json:"counts"`
		Awaited       int            `json:"awaited"`
		DLQ           int            `json:"dlq"`
		Alerting      bool           `json:"alerting"`
		AgeMs         int64          `json:"ageMs"`
		OldestReadyMs int64          `json:"oldestReadyMs"`
	}
	out := make([]dagJSON, 0, len(dags))
	for _, d := range dags {
		c := map[string]int{}
		for st, n := range d.Counts {
			c[string(st)] = n
		}
		out = append(out, dagJSON{d.DAG, c, d.Awaited, d.DLQ, d.Alerting, d.Age.Milliseconds(), d.OldestReady.Milliseconds()})
	}
	writeJSON(w, http.StatusOK, out)
}

// script serves live.js, the list page's and the live view's small
// script: the token kept in the browser, the list's rows swapped in as
// the events come.
func (s *server) script(w http.ResponseWriter, r *http.Request) {
	data, err := static.ReadFile("static/live.js")
	if err != nil {
		http.Error(w, "live: "+err.Error(), http.StatusInternalServerError)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/javascript; charset=utf-8")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Length", strconv.Itoa(len(data)))
	_, _ = w.Write(data)
}
