package site_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/chromedp/chromedp"
)

// shot returns a screenshot of what the page draws inside an element's
// box, at the page's scale.
func shot(t testing.TB, ctx context.Context, sel string) image.Image {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		t.Fatalf("screenshot of %s: %v", sel, err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatalf("screenshot of %s: %v", sel, err)
	}
	return img
}

// near counts the pixels of img within tol (in each of red, green and
// blue, 0–255) of the colour c.
func near(img image.Image, c color.RGBA, tol int) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if abs(int(r>>8)-int(c.R)) <= tol && abs(int(g>>8)-int(c.G)) <= tol && abs(int(bl>>8)-int(c.B)) <= tol {
				n++
			}
		}
	}
	return n
}

// differ counts the pixels where two screenshots differ; all of them, if
// their sizes differ.
func differ(a, b image.Image) int {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy()
	}
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				n++
			}
		}
	}
	return n
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// settle waits for the page's transitions of colour (0.35 s) to end.
func settle(t testing.TB, ctx context.Context) {
	t.Helper()
	chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`new Promise(done => setTimeout(done, 600))`, chromedp.EvalAwaitPromise))
}
