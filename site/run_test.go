package site

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dagq/dagq/core/scenario"
)

// chainScript submits a chain of n tasks, each waiting on the one before.
func chainScript(n int) string {
	var b strings.Builder
	b.WriteString("submit t1\n")
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&b, "submit t%d t%d\n", i, i-1)
	}
	return b.String()
}

// lastLine decodes the last JSON line of a trace.
func lastLine(t *testing.T, body string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
		t.Fatalf("the last line %q: %v", lines[len(lines)-1], err)
	}
	return m
}

func TestRunAPIRefusesWhatItShouldNotRun(t *testing.T) {
	t.Parallel()
	h := New(Options{Static: built(), Origins: []string{"https://docs.example"}})
	tests := []struct {
		name   string
		header []string
		status int
		error  string
	}{
		{"AFormPost", []string{"Content-Type", "application/x-www-form-urlencoded"}, http.StatusUnsupportedMediaType, "send the script as text/plain"},
		{"JSON", []string{"Content-Type", "application/json"}, http.StatusUnsupportedMediaType, "text/plain"},
		{"Latin1", []string{"Content-Type", "text/plain; charset=latin1"}, http.StatusUnsupportedMediaType, "text/plain"},
		{"APageOfAnotherSite", []string{"Origin", "https://evil.example"}, http.StatusForbidden, `not for "https://evil.example"`},
		{"ASandboxedPage", []string{"Origin", "null"}, http.StatusForbidden, "this site's own pages only"},
		{"AnotherPortOfThisHost", []string{"Origin", "http://example.com:8081"}, http.StatusForbidden, "own pages only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, h, "POST", "/api/run", "submit a\n", tt.header...)
			var got map[string]string
			json.NewDecoder(r.Body).Decode(&got)
			if r.StatusCode != tt.status || !strings.Contains(got["error"], tt.error) {
				t.Errorf("status %d %q, want %d and an error saying %q", r.StatusCode, got["error"], tt.status, tt.error)
			}
		})
	}
	// httptest's requests are for example.com.
	for _, origin := range []string{"http://example.com", "https://example.com", "https://docs.example"} {
		if r := do(t, h, "POST", "/api/run", "submit a\n", "Origin", origin); r.StatusCode != http.StatusOK {
			t.Errorf("a page at %s: status %d, want 200", origin, r.StatusCode)
		}
	}
	if r := do(t, h, "POST", "/api/run", "submit a\n", "Content-Type", "text/plain"); r.StatusCode != http.StatusOK {
		t.Errorf("text/plain without a charset: status %d", r.StatusCode)
	}
}

func TestRunAPIEchoesLittleOfABadStrategy(t *testing.T) {
	t.Parallel()
	h := New(Options{Static: built()})
	r := do(t, h, "POST", "/api/run?strategy="+strings.Repeat("x", 5000), "submit a\n")
	body := readAll(t, r)
	if r.StatusCode != http.StatusBadRequest || len(body) > 300 {
		t.Errorf("status %d, %d bytes: %.200s", r.StatusCode, len(body), body)
	}
}

// TestRunAPIStopsAtItsLimits: a run past a limit, or its time, ends its
// trace with a line that says which, and the Dagq-Stopped trailer.
func TestRunAPIStopsAtItsLimits(t *testing.T) {
	t.Parallel()
	t.Run("Tasks", func(t *testing.T) {
		h := New(Options{Static: built(), Limits: &scenario.Limits{Tasks: 10}})
		r := do(t, h, "POST", "/api/run", chainScript(50))
		body := readAll(t, r)
		last := lastLine(t, body)
		if r.StatusCode != http.StatusOK || last["stopped"] != "tasks" || last["line"] != 11.0 || strings.Count(body, "\n") != 11 {
			t.Fatalf("status %d, last line %v", r.StatusCode, last)
		}
		if got := r.Trailer.Get("Dagq-Stopped"); got != "stopped before line 11: the run may submit at most 10 tasks" {
			t.Errorf("Dagq-Stopped %q", got)
		}
	})
	t.Run("Time", func(t *testing.T) {
		// The textbook check is quadratic on a chain: 20,000 tasks take
		// far longer than 50 ms.
		h := New(Options{Static: built(), RunTimeout: 50 * time.Millisecond})
		start := time.Now()
		r := do(t, h, "POST", "/api/run?strategy=dfs", chainScript(20000))
		body := readAll(t, r)
		last := lastLine(t, body)
		if last["stopped"] != "context" || !strings.Contains(last["error"].(string), "the run took longer than its time limit of 50ms") {
			t.Fatalf("last line %v", last)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("the run went on for %v", d)
		}
	})
}

// TestRunAPIRefusesPastItsRunsAtOnce: with one run going and no room to
// wait, another is refused with 503 and Retry-After, and /healthz still
// answers.
func TestRunAPIRefusesPastItsRunsAtOnce(t *testing.T) {
	t.Parallel()
	h := New(Options{Static: built(), Runs: 1, RunWait: 10 * time.Millisecond, RunTimeout: 3 * time.Second})
	srv := httptest.NewServer(h)
	defer srv.Close()
	post := func(strategy, script string) (*http.Response, error) {
		req, _ := http.NewRequest("POST", srv.URL+"/api/run?strategy="+strategy, strings.NewReader(script))
		req.Header.Set("Content-Type", "text/plain")
		return http.DefaultClient.Do(req)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if r, err := post("dfs", chainScript(30000)); err == nil {
			readAll(t, r)
		}
	}()
	defer wg.Wait()
	deadline := time.Now().Add(3 * time.Second)
	for {
		r, err := post("", "submit a\n")
		if err != nil {
			t.Fatal(err)
		}
		body := readAll(t, r)
		if r.StatusCode == http.StatusServiceUnavailable {
			if r.Header.Get("Retry-After") != "1" || !strings.Contains(body, "busy: every run slot (1) is taken") {
				t.Errorf("503 with Retry-After %q: %s", r.Header.Get("Retry-After"), body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a second run was never refused while the first went on")
		}
		time.Sleep(5 * time.Millisecond)
	}
	resp, err := http.Get(srv.URL + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
}
