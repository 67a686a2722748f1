package site_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// toldParts are the parts of the page that tell a step in text.
const toldParts = `['#caption', '#counts', '#step-label', '#clock', '#ready-line', '#dlq', '#event-log', '#log-more']`

// framesOfPlay clicks Play and reads each frame of the next 2 s, after
// the page's own work for the frame: its time, the step drawn and the text
// of each of parts (a JavaScript array of selectors), in that order.
func framesOfPlay(t *testing.T, ctx context.Context, parts string) [][]any {
	t.Helper()
	return evalAwait[[][]any](t, ctx, `new Promise(done => {
		document.querySelector('#play').click();
		const f = [];
		const tick = now => {
			f.push([now, +document.body.dataset.step, ...`+parts+`.map(s => document.querySelector(s).textContent)]);
			if (now - f[0][0] < 2000) requestAnimationFrame(tick); else done(f);
		};
		requestAnimationFrame(tick);
	})`)
}

// TestPlayAt16TellsFourTimesASecond: at 16× every step is drawn, but the
// page's text (caption, counts, timeline, clock, READY line, DLQ, event
// log) changes at most four times a second; the pause tells the step it
// stops at, word for word as the same step opened afresh.
func TestPlayAt16TellsFourTimesASecond(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=outage&step=500")
	choose(t, ctx, "#speed", "50")
	frames := framesOfPlay(t, ctx, `['#caption']`)
	click(t, ctx, "#pause")
	steps, tells := 0, 0
	lastTell := -1.0
	for i := 1; i < len(frames); i++ {
		if frames[i][1] != frames[i-1][1] {
			steps++
		}
		if frames[i][2] != frames[i-1][2] {
			tells++
			at := frames[i][0].(float64)
			if lastTell >= 0 && at-lastTell < 200 {
				t.Errorf("the caption changed at %.0f ms and again at %.0f ms", lastTell, at)
			}
			lastTell = at
		}
	}
	// 40 steps are due in 2 s; a slow frame draws the step due, skipping
	// those before it.
	if steps < 12 {
		t.Fatalf("2 s of play at 16× drew %d steps; want at least 12", steps)
	}
	if tells < 2 || tells > 9 {
		t.Errorf("in 2 s of play at 16× (%d steps drawn) the caption changed %d times; want 2 to 9", steps, tells)
	}

	at := stepShown(t, ctx)
	read := fmt.Sprintf(`%s.map(s => document.querySelector(s).innerText)`, toldParts)
	// The pause settles what it tells at once: read it on the next frame.
	paused := evalAwait[[]string](t, ctx, `new Promise(done => requestAnimationFrame(() => done(`+read+`)))`)
	open(t, ctx, base, fmt.Sprintf("/?scenario=outage&step=%d", at))
	fresh := eval[[]string](t, ctx, read)
	parts := []string{"caption", "counts", "step label", "clock", "READY line", "DLQ", "event log", "log's note"}
	for i := range parts {
		if paused[i] != fresh[i] {
			t.Errorf("paused at step %d, the %s says\n%q\nbut the step opened afresh says\n%q", at, parts[i], paused[i], fresh[i])
		}
	}
}

// TestPlayAt16ToTheEndTellsTheLastStep: play at 16× that runs to the end
// of the script stops there told, as the last step opened afresh; and
// slowing play down tells the step shown at once.
func TestPlayAt16ToTheEndTellsTheLastStep(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=retry-storm-jitter")
	choose(t, ctx, "#speed", "50")
	click(t, ctx, "#play")
	waitFor(t, ctx, `!document.querySelector('#play').hidden`)
	at := stepShown(t, ctx)
	if n := eval[int](t, ctx, `+document.querySelector('#step-slider').max`); at != n {
		t.Fatalf("play ran to step %d of %d", at, n)
	}
	read := fmt.Sprintf(`%s.map(s => document.querySelector(s).innerText)`, toldParts)
	ended := eval[[]string](t, ctx, read)
	open(t, ctx, base, fmt.Sprintf("/?scenario=retry-storm-jitter&step=%d", at))
	if fresh := eval[[]string](t, ctx, read); fmt.Sprint(ended) != fmt.Sprint(fresh) {
		t.Errorf("play ended at step %d saying\n%q\nbut the step opened afresh says\n%q", at, ended, fresh)
	}

	// From 16× to ½× while playing: the step shown is told at once, not
	// a slow step later.
	open(t, ctx, base, "/?scenario=outage&step=300")
	choose(t, ctx, "#speed", "50")
	click(t, ctx, "#play")
	waitFor(t, ctx, `document.body.dataset.step >= 320`)
	told := evalAwait[[]string](t, ctx, `new Promise(done => {
		const sel = document.querySelector('#speed');
		sel.value = '1600'; sel.dispatchEvent(new Event('change'));
		requestAnimationFrame(() => done([document.body.dataset.step, document.querySelector('#step-label').innerText]));
	})`)
	click(t, ctx, "#pause")
	if want := "step " + told[0] + " "; !strings.HasPrefix(told[1]+" ", want) {
		t.Errorf("slowed down at step %s, the timeline says %q", told[0], told[1])
	}
}

// TestPlayAt16DoesOneJobAFrame: at 16× no frame both draws a step and
// changes the page's text, so that on a loaded machine no frame costs
// both (playground.Frames); the text is told all the same, a part a
// frame, between the steps; and the READY line, held at its tallest
// while play runs, does not stretch its chips.
func TestPlayAt16DoesOneJobAFrame(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=outage&step=500")
	choose(t, ctx, "#speed", "50")
	frames := framesOfPlay(t, ctx, toldParts)
	// Play holds the READY line's height (steady): its chips keep theirs.
	chips := eval[[]float64](t, ctx, `[...document.querySelectorAll('#ready-line .chip')].map(c => c.getBoundingClientRect().height)`)
	click(t, ctx, "#pause")
	for _, h := range chips {
		if h > 30 {
			t.Errorf("playing, a READY chip is %.0f px tall; want its line's height, under 30 px", h)
		}
	}
	steps, tells := 0, 0
	for i := 1; i < len(frames); i++ {
		stepped := frames[i][1] != frames[i-1][1]
		var changed []string
		for j := 2; j < len(frames[i]); j++ {
			if frames[i][j] != frames[i-1][j] {
				changed = append(changed, fmt.Sprint(j-2))
			}
		}
		if stepped {
			steps++
		}
		if len(changed) > 0 {
			tells++
		}
		if stepped && len(changed) > 0 {
			t.Errorf("the frame at %.0f ms drew step %v and changed told parts %v of %s", frames[i][0], frames[i][1], changed, toldParts)
		}
	}
	if steps < 12 || tells < 2 {
		t.Errorf("2 s of play at 16× drew %d steps and changed the text in %d frames; want at least 12 and 2", steps, tells)
	}
}

// TestPlayWritesTheAddressWhenItPauses: play, quick or slow, does not
// write the address bar at its steps (a shared script's address is tens
// of kilobytes, and each write costs the browser as much as a step); the
// pause writes the step it stops at, so that a reload shows it.
func TestPlayWritesTheAddressWhenItPauses(t *testing.T) {
	ctx, base := playground(t)
	for _, c := range []struct {
		speed    string
		minSteps int
	}{{"50", 10}, {"400", 2}} {
		open(t, ctx, base, "/?scenario=outage&step=500")
		choose(t, ctx, "#speed", c.speed)
		addrs := evalAwait[[]string](t, ctx, `new Promise(done => {
			document.querySelector('#play').click();
			const seen = [location.href], t0 = performance.now();
			const tick = now => {
				if (location.href !== seen[seen.length - 1]) seen.push(location.href);
				if (now - t0 < 1500) requestAnimationFrame(tick); else done(seen);
			};
			requestAnimationFrame(tick);
		})`)
		if steps := stepShown(t, ctx) - 500; steps < c.minSteps {
			t.Fatalf("1.5 s of play at speed %s moved %d steps; want at least %d", c.speed, steps, c.minSteps)
		}
		if len(addrs) != 1 {
			t.Errorf("play at speed %s wrote the address %d times: %q", c.speed, len(addrs)-1, addrs[1:])
		}
		click(t, ctx, "#pause")
		want := fmt.Sprintf("step=%d", stepShown(t, ctx))
		waitFor(t, ctx, fmt.Sprintf(`location.search.includes(%q)`, want))
	}
}
