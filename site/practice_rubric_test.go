package site_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dagq/dagq/site"
)

func TestRubricPageLinksEveryLevel(t *testing.T) {
	rec := httptest.NewRecorder()
	site.New(site.Options{}).ServeHTTP(rec, httptest.NewRequest("GET", "/rubric", nil))
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("status %d, type %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	body := rec.Body.String()
	for _, want := range []string{"Mid-level", "Senior", "Staff", "?practice=L5&amp;set=book&amp;ex=diamond-with-another-dead-root", "?scenario=tricky-cycle",
		`id="your-own-queue"`, "wq practice init --level L4", `href="./?interview=new"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the rubric page lacks %q", want)
		}
	}
}
