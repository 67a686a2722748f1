package site_test

import (
	"bytes"
	"strings"
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

// TestShareOffersPictures: the Share panel offers this step's picture and
// the animation as Markdown, and both addresses draw in an <img>.
func TestShareOffersPictures(t *testing.T) {
	ctx, base := playground(t)
	open(t, ctx, base, "/?scenario=diamond-redrive&step=12")
	click(t, ctx, "#share")
	waitFor(t, ctx, `document.querySelector('#share-image').value !== ""`)
	md := eval[string](t, ctx, `document.querySelector('#share-image').value`)
	if !strings.HasPrefix(md, "![A diamond dies at its root and is redriven whole, step 12](") || !strings.Contains(md, "/svg?scenario=diamond-redrive&step=12)") {
		t.Errorf("picture markdown %q", md)
	}
	anim := eval[string](t, ctx, `document.querySelector('#share-animation').value`)
	if !strings.Contains(anim, "/svg?scenario=diamond-redrive&animate=1)") {
		t.Errorf("animation markdown %q", anim)
	}
	eval[bool](t, ctx, `(() => {
		for (const id of ['share-image-open', 'share-animation-open']) {
			const img = document.createElement('img');
			img.id = id + '-img';
			img.src = document.getElementById(id).href;
			document.body.appendChild(img);
		}
		return true })()`)
	waitFor(t, ctx, `document.getElementById('share-image-open-img').complete && document.getElementById('share-animation-open-img').complete`)
	for _, id := range []string{"share-image-open-img", "share-animation-open-img"} {
		if w := eval[float64](t, ctx, `document.getElementById('`+id+`').naturalWidth`); w < 300 {
			t.Errorf("#%s drew %v pixels wide", id, w)
		}
	}
}
