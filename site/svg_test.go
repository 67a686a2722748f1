package site

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/dagq/dagq/internal/playground"
)

func TestSVG(t *testing.T) {
	t.Parallel()
	h := New(Options{Static: built()})
	t.Run("AScenarioAtItsEnd", func(t *testing.T) {
		r := do(t, h, "GET", "/svg?scenario=diamond-redrive&step=end", "")
		body := readAll(t, r)
		if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "image/svg+xml" {
			t.Fatalf("status %d type %q", r.StatusCode, r.Header.Get("Content-Type"))
		}
		if !strings.HasPrefix(body, "<svg ") || !strings.Contains(body, `data-task="d" data-state="SUCCEEDED"`) {
			t.Errorf("not the diamond at its end: %.300s", body)
		}
		if r.Header.Get("ETag") == "" || !strings.Contains(r.Header.Get("Cache-Control"), "max-age") {
			t.Errorf("not cacheable: ETag %q, Cache-Control %q", r.Header.Get("ETag"), r.Header.Get("Cache-Control"))
		}
		again := do(t, h, "GET", "/svg?scenario=diamond-redrive&step=end", "", "If-None-Match", r.Header.Get("ETag"))
		if again.StatusCode != http.StatusNotModified {
			t.Errorf("the same ETag again: status %d, want 304", again.StatusCode)
		}
	})
	t.Run("AScriptAtAStep", func(t *testing.T) {
		script := base64.RawURLEncoding.EncodeToString([]byte("submit b a\nsubmit a\nnext\n"))
		body := readAll(t, do(t, h, "GET", "/svg?script="+script+"&step=2", ""))
		if !strings.Contains(body, `data-task="a" data-state="READY"`) || !strings.Contains(body, "step 2 of 3") {
			t.Errorf("not step 2: %.400s", body)
		}
	})
	t.Run("Animated", func(t *testing.T) {
		body := readAll(t, do(t, h, "GET", "/svg?scenario=tricky-cycle&animate=1", ""))
		if !strings.Contains(body, "@keyframes") || !strings.Contains(body, "dagq-film") {
			t.Errorf("no animation: %.300s", body)
		}
	})
	t.Run("BadParametersAre400AndSayWhich", func(t *testing.T) {
		var wide strings.Builder
		for i := range MaxSVGTasks + 1 {
			wide.WriteString("submit t" + strconvItoa(i) + "\n")
		}
		many, compressed := playground.EncodeScript(wide.String())
		if !compressed {
			t.Fatal("a long script is not compressed")
		}
		tests := []struct{ query, says string }{
			{"", "give scenario=NAME or script=BASE64URL"},
			{"scenario=nope", "scenario: "},
			{"scenario=diamond-redrive&step=abc", "step: "},
			{"scenario=diamond-redrive&step=999", "step: 999 is past the end"},
			{"scenario=diamond-redrive&animate=yes", "animate: must be 1 or 0"},
			{"scenario=diamond-redrive&strategy=bogus", "strategy: "},
			{"script=!!!", "script: "},
			{"script=" + base64.RawURLEncoding.EncodeToString([]byte("submit a\nnxet\n")), "unknown command"},
			{"script=" + base64.RawURLEncoding.EncodeToString([]byte(strings.Repeat("next\n", MaxSVGScript/5+1))), "longer than"},
			{"script=" + many + "&enc=deflate", "more than the 5000 tasks"},
		}
		for _, tt := range tests {
			r := do(t, h, "GET", "/svg?"+tt.query, "")
			var got map[string]any
			json.NewDecoder(r.Body).Decode(&got)
			msg, _ := got["error"].(string)
			if r.StatusCode != http.StatusBadRequest || !strings.Contains(msg, tt.says) {
				t.Errorf("/svg?%.60s: status %d %q, want 400 saying %q", tt.query, r.StatusCode, msg, tt.says)
			}
		}
	})
}

func strconvItoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestShareImagesDrawHere: the picture and the animation the Share panel
// offers, for a library scenario and for a script of one's own, are
// addresses /svg draws.
func TestShareImagesDrawHere(t *testing.T) {
	t.Parallel()
	h := New(Options{Static: built()})
	p := playground.New()
	if _, _, err := p.Open("?scenario=two-roots&step=5", ""); err != nil {
		t.Fatal(err)
	}
	named := p.Share("https://x.example/")
	if _, err := p.Act("next"); err != nil {
		t.Fatal(err)
	}
	own := p.Share("https://x.example/")
	for _, sh := range []playground.Share{named, own} {
		for _, u := range []string{sh.Image, sh.Animation} {
			path, ok := strings.CutPrefix(u, "https://x.example/")
			if !ok || !strings.HasPrefix(path, "svg?") {
				t.Fatalf("image address %q is not the site's /svg", u)
			}
			r := do(t, h, "GET", "/"+path, "")
			body := readAll(t, r)
			if r.StatusCode != http.StatusOK || !strings.HasPrefix(body, "<svg ") {
				t.Errorf("%s: status %d %.200s", u, r.StatusCode, body)
			}
			if strings.Contains(u, "animate=1") != strings.Contains(body, "@keyframes") {
				t.Errorf("%s: animated %v", u, strings.Contains(body, "@keyframes"))
			}
		}
		if !strings.HasPrefix(sh.ImageMarkdown, "![") || !strings.HasSuffix(sh.ImageMarkdown, "("+sh.Image+")") ||
			!strings.HasSuffix(sh.AnimationMarkdown, "("+sh.Animation+")") {
			t.Errorf("markdown %q, %q", sh.ImageMarkdown, sh.AnimationMarkdown)
		}
	}
	if !strings.Contains(named.Image, "scenario=two-roots&step=5") || !strings.Contains(own.Image, "script=") {
		t.Errorf("images %q and %q", named.Image, own.Image)
	}
}
