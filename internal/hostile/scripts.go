package hostile

import (
	"fmt"
	"strings"

	"github.com/dagq/dagq/internal/playground"
)

// MaxScript is the size [Fill] fills a script up to: the largest script
// the site's POST /api/run accepts.
const MaxScript = 1 << 20

// FanOutRedriven is a 2,500-task fan-out whose root fails and is redriven
// until the script is 64 KB: about 7 million events, about 8 KB once
// deflated into a picture's link.
func FanOutRedriven() string {
	var b strings.Builder
	b.WriteString("attempts 1\nsubmit r\n")
	for i := range 2500 {
		fmt.Fprintf(&b, "submit a%d r\n", i)
	}
	for b.Len()+len("next\nfail r\nredrive r\n") <= 64<<10 {
		b.WriteString("next\nfail r\nredrive r\n")
	}
	return b.String()
}

// SVGQuery is the query of the /svg picture of script ("?script=…"),
// deflated as the playground's links are, animated if asked.
func SVGQuery(script string, animate bool) string {
	enc, compressed := playground.EncodeScript(script)
	q := "?script=" + enc
	if compressed {
		q += "&enc=deflate"
	}
	if animate {
		q += "&animate=1"
	}
	return q
}

// LongRoot is a script whose root task has a name of n bytes, then a chain
// of dependents that fills it to about size bytes, then the root's death:
// every task it blocks names the root, in its reason and in the
// dead-letter queue of every later step.
func LongRoot(n, size int) string {
	root := strings.Repeat("r", n)
	var b strings.Builder
	fmt.Fprintf(&b, "attempts 1\nsubmit %s\nsubmit c1 %s\n", root, root)
	for i := 2; b.Len() < size-len("next\nfail  boom\n")-n-20; i++ {
		fmt.Fprintf(&b, "submit c%d c%d\n", i, i-1)
	}
	fmt.Fprintf(&b, "next\nfail %s boom\n", root)
	return b.String()
}

// ChainOf submits a chain c1…cn, c1 waiting on first (which may not
// exist).
func ChainOf(n int, first string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "submit c1 %s\n", first)
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&b, "submit c%d c%d\n", i, i-1)
	}
	return b.String()
}

// Fill repeats line after head for as long as the script stays within
// [MaxScript] bytes.
func Fill(head, line string) string {
	var b strings.Builder
	b.WriteString(head)
	for b.Len()+len(line) <= MaxScript {
		b.WriteString(line)
	}
	return b.String()
}

// Submits returns at least size bytes of submits of independent tasks,
// named s0000000, s0000001, ….
func Submits(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "submit s%07d\n", i)
	}
	return b.String()
}
