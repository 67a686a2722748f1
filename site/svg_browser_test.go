package site_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestAnimatedSVGPlaysInAnImage: /svg's animation, loaded as an <img> (as
// a README shows it), draws, and shows different frames at two times;
// the static picture draws too.
func TestAnimatedSVGPlaysInAnImage(t *testing.T) {
	ctx, base := playground(t)
	// The images go on a page of the site, as a page that embeds them
	// would show them (the playground's policy allows its own images).
	open(t, ctx, base, "/?scenario=tricky-cycle")
	eval[bool](t, ctx, `(() => {
		document.body.innerHTML = '<img id="film" src="/svg?scenario=diamond-redrive&animate=1">' +
			'<img id="still" src="/svg?scenario=two-roots&step=end">';
		return true })()`)
	waitFor(t, ctx, `document.getElementById('film').complete && document.getElementById('still').complete`)
	for _, id := range []string{"film", "still"} {
		if w := eval[float64](t, ctx, `document.getElementById('`+id+`').naturalWidth`); w < 300 {
			t.Fatalf("#%s drew %v pixels wide", id, w)
		}
	}
	shot := func() []byte {
		buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#film")))
		if err != nil {
			t.Fatal(err)
		}
		return buf
	}
	first := shot()
	time.Sleep(2500 * time.Millisecond) // two frames of 1.2 s
	if second := shot(); bytes.Equal(first, second) {
		t.Error("the animation shows the same picture 2.5 s later: it does not play in an <img>")
	}
}
