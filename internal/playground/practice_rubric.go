package playground

import (
	"html"
	"io"
	"strings"
)

// RubricLevel is what an answer to the work-queue design question covers
// at one level of seniority.
type RubricLevel struct {
	Name    string // "Mid-level", "Senior", "Staff"
	Level   Level  // the practice level that drills it
	Summary string
	Points  []RubricPoint
}

// RubricPoint is one thing a good answer covers, with the exercise that
// drills it and the library scenario that shows it.
type RubricPoint struct {
	Text     string
	Exercise string // the name of a written exercise at the level
	Scenario string // the name of a library scenario
}

// Rubric returns what a mid-level, senior and staff answer to the
// question covers — a work queue with dependencies, retries, a dead-letter
// queue and cycle detection — each point linked to an exercise and a
// library scenario. A test keeps every link pointing at something that
// exists.
func Rubric() []RubricLevel {
	return []RubricLevel{
		{Name: "Mid-level", Level: L4,
			Summary: "Gets the state machine right for one worker: order, fairness, retries, and a graph that stays acyclic.",
			Points: []RubricPoint{
				{"Keeps a count of unfinished dependencies per task; a completion decrements its dependents and releases those that reach zero.", "a-chain", "diamond-redrive"},
				{"Hands out READY tasks first in, first out, and can say what breaks without it.", "first-in-first-out", "retry-back-of-line"},
				{"Puts a retry at the back of the line, never the front, so one failing task cannot starve the rest.", "retry-goes-last", "retry-back-of-line"},
				{"Refuses a task that waits on itself or closes a loop, and changes nothing when it does.", "two-tasks-in-a-loop", "tricky-cycle"},
				{"Lets tasks arrive before their dependencies: an unknown dependency simply counts as not done.", "before-it-exists", "tricky-cycle"},
			}},
		{Name: "Senior", Level: L5,
			Summary: "Handles failure as a first-class path: no silent hangs, a dead-letter queue an operator can act on, and a cycle check that is both right and cheap.",
			Points: []RubricPoint{
				{"Sees that a cycle can close through tasks named before they arrived, and explains why checking from the new task alone is enough.", "cycle-through-old-tasks", "tricky-cycle"},
				{"Blocks everything downstream of a dead task at once, instead of leaving it PENDING for ever, and blocks newcomers on arrival.", "blocked-on-arrival", "blocked-on-arrival"},
				{"Gives every blocked task its root cause, the dead task upstream, not its nearest parent.", "root-cause-down-a-chain", "diamond-redrive"},
				{"Redrives a dead task and decides what it held in dependency order, keeping tasks blocked that another dead root still holds.", "diamond-with-another-dead-root", "two-roots"},
				{"Costs the cycle check: a DFS per submit is quadratic on a deep chain; an incremental topological order is not.", "a-longer-loop", "chain-200"},
			}},
		{Name: "Staff", Level: L6,
			Summary: "Runs it in production: workers crash, clocks matter, outages kill hundreds of tasks at once, and some tasks will never succeed.",
			Points: []RubricPoint{
				{"Leases with heartbeats, so a crashed worker's task comes back, and an expiry on the last attempt is a death like any other.", "expiry-on-the-last-attempt", "lease-kills-diamond"},
				{"Fences every completion by the lease, so a slow worker that comes back cannot finish a task twice.", "stale-completion", "worker-crash"},
				{"Backs off between retries, with jitter, and sends permanent errors to the dead-letter queue at once.", "permanent-error", "permanent-error"},
				{"Operates the dead-letter queue as a whole: groups by root cause, bulk redrive by filter, previewed and paced.", "bulk-redrive", "outage"},
				{"Caps poison pills: a task that dies again after redrives needs a person, not another automatic retry.", "poison-pill", "poison-pill"},
				{"Spreads retries after an outage so that they do not stampede the service that just came back.", "backoff", "retry-storm-jitter"},
			}},
	}
}

// RubricLink returns the playground address of a point's exercise, at
// the rubric level's practice level; relative to the site's root.
func RubricLink(l Level, exercise string) string {
	return "./" + Link{Practice: PracticeLink{Level: l, Set: SetBook, Exercise: exercise}}.Query()
}

// WriteRubric writes the rubric as a page of its own, in the site's
// style, linking each point to its exercise and its scenario.
func WriteRubric(w io.Writer) error {
	var b strings.Builder
	b.WriteString(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>dagq — what a good answer covers</title>
<meta name="description" content="The work-queue design question: what a mid-level, senior and staff answer covers, each point with an exercise to practise it.">
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="style.css">
</head>
<body class="rubric-page">
<header class="top"><h1><a href="./" class="brand"><span class="mark" aria-hidden="true">◆</span> dagq <span>rubric</span></a></h1>
<a class="button" href="./?practice=L4">Practise ▸</a></header>
<main class="rubric">
<p class="lede">The question: <em>design a work queue whose tasks depend on other tasks, with retries, a dead-letter queue and cycle detection.</em> What an answer covers, level by level. Every point links to an exercise that drills it and a scenario that shows it.</p>
`)
	for _, rl := range Rubric() {
		b.WriteString(`<section class="rubric-level" id="` + strings.ToLower(rl.Name) + `">` + "\n")
		b.WriteString("<h2>" + html.EscapeString(rl.Name) + ` <span class="muted">· practise at ` + string(rl.Level) + "</span></h2>\n")
		b.WriteString("<p>" + html.EscapeString(rl.Summary) + "</p>\n<ul>\n")
		for _, pt := range rl.Points {
			b.WriteString("<li>" + html.EscapeString(pt.Text) + ` <span class="rubric-links"><a href="` + html.EscapeString(RubricLink(rl.Level, pt.Exercise)) +
				`">exercise: ` + html.EscapeString(pt.Exercise) + `</a> · <a href="./?scenario=` + html.EscapeString(pt.Scenario) + `">scenario: ` + html.EscapeString(pt.Scenario) + "</a></span></li>\n")
		}
		b.WriteString("</ul>\n</section>\n")
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
