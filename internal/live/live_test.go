package live_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
	"github.com/dagq/dagq/internal/live"
	"github.com/dagq/dagq/internal/pgtest"
	"github.com/dagq/dagq/internal/playground"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var bg = context.Background()

// syncLog is the action log, safe for the server's writes.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// fixture is a database with a DAG "incident": fetch-0…fetch-2 DEAD with
// "HTTP 503", each blocking its parse-N; a server on it.
type fixture struct {
	db   *durable.DB
	q    *durable.Queue
	url  string // the server's base URL
	log  *syncLog
	stop func()
}

const token = "0123456789abcdef0123456789abcdef"

func newFixture(t *testing.T, opt live.Options) *fixture {
	t.Helper()
	db, err := durable.Open(bg, pgtest.New(t), durable.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	q, err := db.Queue(bg, "incident", core.Config{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		must(t, q.Submit(bg, fmt.Sprintf("fetch-%d", i)))
		must(t, q.Submit(bg, fmt.Sprintf("parse-%d", i), fmt.Sprintf("fetch-%d", i)))
	}
	for range 3 {
		l, ok, err := q.Next(bg)
		if err != nil || !ok {
			t.Fatalf("Next: %v %v", ok, err)
		}
		if _, err := q.Fail(bg, l, errors.New("HTTP 503 from 10.0.0.7")); err != nil {
			t.Fatal(err)
		}
	}
	f := &fixture{db: db, q: q, log: &syncLog{}}
	opt.Log = f.log
	ctx, cancel := context.WithCancel(bg)
	srv := httptest.NewServer(live.New(ctx, db, http.NotFoundHandler(), opt))
	f.url, f.stop = srv.URL, func() { cancel(); srv.Close() }
	t.Cleanup(f.stop)
	return f
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// post sends a POST with the headers given (name, value, …) and returns
// the status and body.
func post(t *testing.T, url, body string, headers ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	must(t, err)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// fingerprint is the incident's one group's fingerprint, as the DB says.
func (f *fixture) fingerprint(t *testing.T) string {
	t.Helper()
	g, err := f.q.DeadLetterGroups(bg)
	must(t, err)
	if len(g) != 1 {
		t.Fatalf("%d groups, want 1", len(g))
	}
	return g[0].Fingerprint
}

// deadNow returns the DAG's DEAD tasks, read in the database.
func (f *fixture) deadNow(t *testing.T) []string {
	t.Helper()
	st, err := f.q.States(bg)
	must(t, err)
	var dead []string
	for _, name := range []string{"fetch-0", "fetch-1", "fetch-2"} {
		if st[name] == core.Dead {
			dead = append(dead, name)
		}
	}
	return dead
}

func TestARefusedChangeChangesNothing(t *testing.T) {
	f := newFixture(t, live.Options{Token: token})
	fp := f.fingerprint(t)
	body := `{"fingerprint":` + fmt.Sprintf("%q", fp) + `}`
	origin := "Origin"
	for _, tt := range []struct {
		name    string
		route   string
		body    string
		headers []string
	}{
		{"WithoutAToken", "redrive", body, nil},
		{"WithAWrongToken", "redrive", body, []string{live.TokenHeader, strings.Repeat("f", 32)}},
		{"WithAnEmptyToken", "redrive", body, []string{live.TokenHeader, ""}},
		{"FromAnotherOrigin", "redrive", body, []string{live.TokenHeader, token, origin, "https://evil.example"}},
		{"FromAnotherSite", "redrive", body, []string{live.TokenHeader, token, "Sec-Fetch-Site", "cross-site"}},
		{"ForceWithoutAToken", "force", `{"task":"fetch-0"}`, nil},
		{"ForceFromAnotherOrigin", "force", `{"task":"fetch-0"}`, []string{live.TokenHeader, token, origin, "http://127.0.0.1:1"}},
		{"AtARateWithAWrongToken", "redrive", `{"fingerprint":` + fmt.Sprintf("%q", fp) + `,"rate":"1/1s"}`, []string{live.TokenHeader, token + "0"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, resp := post(t, f.url+"/api/live/dags/incident/"+tt.route, tt.body, tt.headers...)
			if code != http.StatusForbidden {
				t.Errorf("%d %s, want 403", code, resp)
			}
			if dead := f.deadNow(t); len(dead) != 3 {
				t.Fatalf("DEAD now %v, want all three: a refused request changed the queue", dead)
			}
			if _, running, err := f.q.Redriving(bg); err != nil || running {
				t.Fatalf("a redrive is under way (%v, %v) after a refused request", running, err)
			}
		})
	}
	if !strings.Contains(f.log.String(), "refused POST /api/live/dags/incident/redrive") {
		t.Errorf("the refusals are not logged:\n%s", f.log)
	}

	t.Run("ReadOnlyRefusesTheRightToken", func(t *testing.T) {
		ro := newFixture(t, live.Options{Token: token, ReadOnly: true})
		code, resp := post(t, ro.url+"/api/live/dags/incident/redrive", `{"fingerprint":`+fmt.Sprintf("%q", ro.fingerprint(t))+`}`, live.TokenHeader, token)
		if code != http.StatusForbidden || !strings.Contains(resp, "read-only") {
			t.Errorf("%d %s, want 403 saying read-only", code, resp)
		}
		if dead := ro.deadNow(t); len(dead) != 3 {
			t.Fatalf("DEAD now %v, want all three", dead)
		}
	})

	t.Run("TheRightTokenFromThePageRedrives", func(t *testing.T) {
		code, resp := post(t, f.url+"/api/live/dags/incident/redrive", body, live.TokenHeader, token, origin, f.url, "Sec-Fetch-Site", "same-origin")
		if code != http.StatusOK {
			t.Fatalf("%d %s, want 200", code, resp)
		}
		if dead := f.deadNow(t); len(dead) != 0 {
			t.Fatalf("DEAD now %v, want none", dead)
		}
		var d live.Done
		must(t, json.Unmarshal([]byte(resp), &d))
		if d.Tasks != 3 {
			t.Errorf("the answer says %d tasks, want 3: %s", d.Tasks, resp)
		}
		if log := f.log.String(); !strings.Contains(log, "DAG incident: redrove 3 of group") {
			t.Errorf("the action is not logged with its DAG and count:\n%s", log)
		}
	})
}

func TestInfoSaysWhetherAPageMayAct(t *testing.T) {
	f := newFixture(t, live.Options{Token: token})
	for _, tt := range []struct {
		tok    string
		canAct bool
		state  live.TokenState
	}{{"", false, live.TokenMissing}, {"bad", false, live.TokenWrong}, {token, true, live.TokenOK}} {
		req, _ := http.NewRequest(http.MethodGet, f.url+"/api/live/info", nil)
		req.Header.Set(live.TokenHeader, tt.tok)
		resp, err := http.DefaultClient.Do(req)
		must(t, err)
		var in live.Info
		must(t, json.NewDecoder(resp.Body).Decode(&in))
		resp.Body.Close()
		if in.CanAct != tt.canAct || in.Token != tt.state || (!in.CanAct && in.Why == "") {
			t.Errorf("token %q: %+v, want canAct %v, token %s, and a why when it cannot", tt.tok, in, tt.canAct, tt.state)
		}
	}
}

func TestPreviewChangesNothingAndSaysWhatWouldMove(t *testing.T) {
	f := newFixture(t, live.Options{Token: token})
	code, resp := post(t, f.url+"/api/live/dags/incident/preview", `{"match":"HTTP 503"}`)
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, resp)
	}
	var p live.Preview
	must(t, json.Unmarshal([]byte(resp), &p))
	if len(p.Redrive) != 3 || len(p.Release) != 3 || p.Released != 3 {
		t.Errorf("preview %+v, want 3 to redrive, 3 released", p)
	}
	if dead := f.deadNow(t); len(dead) != 3 {
		t.Fatalf("DEAD now %v after a preview, want all three", dead)
	}
	if code, _ := post(t, f.url+"/api/live/dags/incident/preview", `{"match":"HTTP 503"}`, "Origin", "https://evil.example"); code != http.StatusForbidden {
		t.Errorf("a preview from another origin: %d, want 403", code)
	}
	for _, bad := range []string{`{}`, `{"match":"a","fingerprint":"b"}`, `not json`, `{"match":"x","extra":1}`} {
		if code, resp := post(t, f.url+"/api/live/dags/incident/preview", bad); code != http.StatusBadRequest {
			t.Errorf("body %s: %d %s, want 400", bad, code, resp)
		}
	}
	if code, _ := post(t, f.url+"/api/live/dags/nothing/preview", `{"match":"x"}`); code != http.StatusNotFound {
		t.Errorf("a DAG that does not exist: %d, want 404", code)
	}
	if has, err := f.db.HasDAG(bg, "nothing"); err != nil || has {
		t.Errorf("asking for a DAG that does not exist made it (%v, %v)", has, err)
	}
}

func TestRedriveAtARateAndCancel(t *testing.T) {
	f := newFixture(t, live.Options{Token: token})
	hdr := []string{live.TokenHeader, token}
	code, resp := post(t, f.url+"/api/live/dags/incident/redrive", `{"match":"HTTP 503","rate":"1/1h"}`, hdr...)
	if code != http.StatusOK || !strings.Contains(resp, "at 1/1h") {
		t.Fatalf("%d %s", code, resp)
	}
	if dead := f.deadNow(t); len(dead) != 2 {
		t.Fatalf("DEAD now %v, want two left after the first batch of one", dead)
	}
	if code, resp := post(t, f.url+"/api/live/dags/incident/cancel", ``, hdr...); code != http.StatusOK {
		t.Fatalf("cancel: %d %s", code, resp)
	}
	if _, running, err := f.q.Redriving(bg); err != nil || running {
		t.Fatalf("still redriving (%v, %v) after cancel", running, err)
	}
	if code, resp := post(t, f.url+"/api/live/dags/incident/redrive", `{"match":"HTTP 503","rate":"fast"}`, hdr...); code != http.StatusBadRequest {
		t.Errorf("a rate that does not read: %d %s, want 400", code, resp)
	}
}

func TestTheServerAnswersOnlyItsOwnHosts(t *testing.T) {
	f := newFixture(t, live.Options{Token: token, Hosts: []string{"localhost:1"}})
	resp, err := http.Get(f.url + "/api/live/dags")
	must(t, err)
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a request for another host: %d, want 421", resp.StatusCode)
	}
}

func TestTheListShowsEachDAG(t *testing.T) {
	f := newFixture(t, live.Options{})
	resp, err := http.Get(f.url + "/dags")
	must(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page := string(b)
	for _, want := range []string{`<a href="/?live=incident">incident</a>`, `<td class="dlq">6</td>`, `data-state="DEAD"><span`, `<script src="/live.js">`} {
		if !strings.Contains(page, want) {
			t.Errorf("the list lacks %s:\n%s", want, page)
		}
	}
	var dags []map[string]any
	resp, err = http.Get(f.url + "/api/live/dags")
	must(t, err)
	must(t, json.NewDecoder(resp.Body).Decode(&dags))
	resp.Body.Close()
	if len(dags) != 1 || dags[0]["dag"] != "incident" || dags[0]["dlq"] != float64(6) {
		t.Errorf("/api/live/dags = %v", dags)
	}
}

func TestParseRate(t *testing.T) {
	if r, err := live.ParseRate("10/1s"); err != nil || r != (core.Rate{N: 10, Per: time.Second}) {
		t.Errorf("10/1s: %v %v", r, err)
	}
	for _, bad := range []string{"10", "0/1s", "1/0s", "x/1s", "1/x"} {
		if _, err := live.ParseRate(bad); err == nil {
			t.Errorf("%q read", bad)
		}
	}
}

func TestTheScriptAndATasksDetail(t *testing.T) {
	f := newFixture(t, live.Options{})
	resp, err := http.Get(f.url + "/api/live/dags/incident/script")
	must(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "submit fetch-0") {
		t.Fatalf("script: %d\n%s", resp.StatusCode, b)
	}
	want, err := f.db.ExportScript(bg, "incident")
	must(t, err)
	if string(b) != want {
		t.Errorf("the route's script is not durable.DB.ExportScript's:\n%s\nwant\n%s", b, want)
	}
	if code := get(t, f.url+"/api/live/dags/gone/script"); code != http.StatusNotFound {
		t.Errorf("the script of a DAG that does not exist: %d, want 404", code)
	}

	resp, err = http.Get(f.url + "/api/live/dags/incident/tasks/parse-1")
	must(t, err)
	var d playground.LiveDetail
	must(t, json.NewDecoder(resp.Body).Decode(&d))
	resp.Body.Close()
	if d.State != "BLOCKED" || d.Root != "fetch-1" || len(d.WaitsOn) != 1 || d.WaitsOn[0] != "fetch-1" || d.SubmittedMs == 0 {
		t.Errorf("parse-1's detail: %+v", d)
	}
	resp, err = http.Get(f.url + "/api/live/dags/incident/tasks/fetch-1")
	must(t, err)
	must(t, json.NewDecoder(resp.Body).Decode(&d))
	resp.Body.Close()
	if d.State != "DEAD" || len(d.Attempts) != 1 || !strings.Contains(d.Attempts[0].Error, "HTTP 503") || d.Attempts[0].Outcome != "dead" || d.Attempts[0].Worker == "" {
		t.Errorf("fetch-1's detail: %+v", d)
	}
	if code := get(t, f.url+"/api/live/dags/incident/tasks/nobody"); code != http.StatusNotFound {
		t.Errorf("the detail of a task that does not exist: %d, want 404", code)
	}
}

func TestAForcedRedriveMovesOneTask(t *testing.T) {
	f := newFixture(t, live.Options{Token: token})
	code, resp := post(t, f.url+"/api/live/dags/incident/force", `{"task":"fetch-2"}`, live.TokenHeader, token)
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, resp)
	}
	if dead := f.deadNow(t); strings.Join(dead, " ") != "fetch-0 fetch-1" {
		t.Errorf("DEAD now %v, want fetch-0 and fetch-1 only", dead)
	}
	if code, resp := post(t, f.url+"/api/live/dags/incident/force", `{"task":"parse-0"}`, live.TokenHeader, token); code != http.StatusConflict {
		t.Errorf("a forced redrive of a BLOCKED task: %d %s, want 409", code, resp)
	}
	if !strings.Contains(f.log.String(), "DAG incident: forced the redrive of fetch-2") {
		t.Errorf("the forced redrive is not logged:\n%s", f.log)
	}
}

func TestTheListFlagsARaisedAlert(t *testing.T) {
	f := newFixture(t, live.Options{})
	q, err := f.db.Queue(bg, "alerting", core.Config{MaxAttempts: 1, Alert: core.Alert{Entries: 1, Window: time.Hour}})
	must(t, err)
	must(t, q.Submit(bg, "x"))
	l, _, err := q.Next(bg)
	must(t, err)
	_, err = q.Fail(bg, l, errors.New("boom"))
	must(t, err)
	resp, err := http.Get(f.url + "/dags/rows")
	must(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	rows := string(b)
	alerting := rows[strings.Index(rows, `data-dag="alerting"`):]
	alerting = alerting[:strings.Index(alerting, "</tr>")]
	if !strings.Contains(rows, `<tr data-dag="alerting" class="alert">`) || !strings.Contains(alerting, "DLQ alert") {
		t.Errorf("the alerting DAG's row is not flagged:\n%s", rows)
	}
	incident := rows[strings.Index(rows, `data-dag="incident"`):]
	if incident = incident[:strings.Index(incident, "</tr>")]; strings.Contains(incident, "DLQ alert") {
		t.Errorf("a DAG without an alert is flagged:\n%s", incident)
	}
}
