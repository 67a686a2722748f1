package render_test

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/render"
)

// A fetch died; the parse waiting on it is blocked. Every task is a
// <g class="task"> naming the task and its state, every edge a
// <path class="edge"> naming its ends; the dead-letter reasons are the
// tooltips.
func ExampleWriteSVG() {
	nodes := []render.Node{{Name: "fetch"}, {Name: "parse", Deps: []string{"fetch"}}}
	var doc strings.Builder
	render.WriteSVG(&doc, nodes, render.LayOut(nodes), render.Options{
		States:  map[string]core.State{"fetch": core.Dead, "parse": core.Blocked},
		Reasons: map[string]string{"fetch": "failed after 3 attempts: HTTP 503", "parse": "blocked by fetch"},
	})
	// Print the opening tag, the edges and the tasks, without the style sheet.
	sc := bufio.NewScanner(strings.NewReader(doc.String()))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "<svg ") || strings.HasPrefix(line, `<path class="edge"`) || strings.HasPrefix(line, `<g class="task"`) {
			fmt.Fprintln(os.Stdout, line)
		}
	}
	// Output:
	// <svg xmlns="http://www.w3.org/2000/svg" class="dagq" width="176" height="184" viewBox="0 0 176 184" role="img">
	// <path class="edge" data-from="fetch" data-to="parse" d="M88,64 C88,92 88,92 88,120" fill="none" stroke="#8c8c8c" marker-end="url(#dagq-arrow)"/>
	// <g class="task" data-task="fetch" data-state="DEAD" transform="translate(88,42)"><title>fetch — DEAD: failed after 3 attempts: HTTP 503</title><rect class="box" x="-68" y="-22" width="136" height="44" rx="6" fill="#fae2d3" stroke="#d55e00"/><text class="name" y="-4" text-anchor="middle" fill="#732a00">fetch</text><text class="state" y="14" text-anchor="middle" fill="#732a00">✗ DEAD</text></g>
	// <g class="task" data-task="parse" data-state="BLOCKED" transform="translate(88,142)"><title>parse — BLOCKED: blocked by fetch</title><rect class="box" x="-68" y="-22" width="136" height="44" rx="6" fill="#f6e3ee" stroke="#cc79a7"/><text class="name" y="-4" text-anchor="middle" fill="#66204a">parse</text><text class="state" y="14" text-anchor="middle" fill="#66204a">⊘ BLOCKED</text></g>
}
