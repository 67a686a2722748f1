package playground_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/internal/playground"
)

// TestFilterByState: a click on a state's count adds it to the filter, a
// second takes it away; the note counts what is shown; the link keeps the
// filter and a link opens it, in any case and order, a bad state left out
// with a notice.
func TestFilterByState(t *testing.T) {
	t.Parallel()
	p := open(t, "?scenario=outage&step=541", "")
	if p.Filter() != nil || p.FilterNote() != "" {
		t.Fatalf("a fresh page filters %v: %q", p.Filter(), p.FilterNote())
	}
	if p.ToggleFilter("GONE") || p.Filter() != nil {
		t.Errorf("a state that is not one was taken: %v", p.Filter())
	}
	p.ToggleFilter(core.Blocked)
	p.ToggleFilter(core.Dead)
	if want := []core.State{core.Dead, core.Blocked}; !reflect.DeepEqual(p.Filter(), want) {
		t.Errorf("filter %v, want %v", p.Filter(), want)
	}
	s := p.Session()
	n := s.Count(core.Dead) + s.Count(core.Blocked)
	if note := p.FilterNote(); !strings.HasPrefix(note, "Showing only DEAD and BLOCKED: ") || !strings.Contains(note, " "+itoa(n)+" of ") {
		t.Errorf("note %q, want DEAD and BLOCKED, %d of them", note, n)
	}
	// At step 0 nothing is submitted yet: the note says so rather than
	// "0 of 0 tasks" beside the counts' "of 444 tasks".
	z := open(t, "?scenario=outage&step=0&show=DEAD", "")
	if note := z.FilterNote(); note != "Showing only DEAD: no task is submitted at this step." {
		t.Errorf("at step 0 the note says %q", note)
	}
	addr := p.Address()
	if !strings.Contains(addr, "show=DEAD,BLOCKED") {
		t.Errorf("the address %q keeps no filter", addr)
	}
	q := open(t, addr, "")
	if !reflect.DeepEqual(q.Filter(), p.Filter()) {
		t.Errorf("the link opens the filter %v, want %v", q.Filter(), p.Filter())
	}
	p.ToggleFilter(core.Dead)
	p.ToggleFilter(core.Blocked)
	if p.Filter() != nil || strings.Contains(p.Address(), "show=") {
		t.Errorf("every state toggled off: filter %v, address %q", p.Filter(), p.Address())
	}
	p.ToggleFilter(core.Ready)
	p.ClearFilter()
	if p.Filter() != nil {
		t.Errorf("cleared: %v", p.Filter())
	}

	r := playground.New()
	_, notices, err := r.Open("?scenario=outage&show=blocked,NOPE,dead,blocked", "")
	if err != nil || len(notices) != 1 || !strings.Contains(notices[0], "show") || !strings.Contains(notices[0], "NOPE") {
		t.Errorf("a bad state: notices %q, err %v", notices, err)
	}
	if want := []core.State{core.Dead, core.Blocked}; !reflect.DeepEqual(r.Filter(), want) {
		t.Errorf("filter %v, want %v", r.Filter(), want)
	}
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}
