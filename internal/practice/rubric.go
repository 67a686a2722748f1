package practice

import (
	"io"
	"slices"
	"strings"

	"github.com/dagq/dagq/internal/escape"
	"github.com/dagq/dagq/internal/playground"
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
	// ID names the point in questions ([Question.Rubric]), e.g. "fifo".
	ID       string
	Text     string
	Exercise string // the name of a written exercise at the level
	Scenario string // the name of a library scenario
	// Topics are the topics whose step questions, at the level, ask this
	// point; written questions name it by ID.
	Topics []Topic
}

// Rubric returns what a mid-level, senior and staff answer to the
// question covers — a work queue with dependencies, retries, a dead-letter
// queue and cycle detection — each point linked to an exercise that asks
// it and a library scenario. Tests keep every link pointing at something
// that exists, and every point asked at its level by three questions or
// more, a "why" among them.
func Rubric() []RubricLevel {
	return []RubricLevel{
		{Name: "Mid-level", Level: L4,
			Summary: "Gets the state machine right for one worker: order, fairness, retries, and a graph that stays acyclic.",
			Points: []RubricPoint{
				{"count", "Keeps a count of unfinished dependencies per task; a completion decrements its dependents and releases those that reach zero.", "a-chain", "diamond-redrive", []Topic{TopicOrder}},
				{"fifo", "Hands out READY tasks first in, first out, and can say what breaks without it.", "first-in-first-out", "retry-back-of-line", []Topic{TopicFIFO}},
				{"retry", "Puts a retry at the back of the line, never the front, so one failing task cannot starve the rest; a task out of attempts is DEAD, not retried for ever.", "out-of-attempts", "retry-back-of-line", []Topic{TopicRetry, TopicBlocking, TopicRootCause}},
				{"refuse", "Refuses a task that waits on itself or closes a loop, and changes nothing when it does.", "two-tasks-in-a-loop", "tricky-cycle", []Topic{TopicCycle, TopicRefused}},
				{"early", "Lets tasks arrive before their dependencies: an unknown dependency simply counts as not done.", "before-it-exists", "tricky-cycle", []Topic{TopicArrival}},
			}},
		{Name: "Senior", Level: L5,
			Summary: "Handles failure as a first-class path: no silent hangs, a dead-letter queue an operator can act on, and a cycle check that is right however the tasks arrive.",
			Points: []RubricPoint{
				{"cycle-old", "Sees that a cycle can close through tasks named before they arrived, and explains why checking from the new task alone is enough.", "cycle-through-old-tasks", "tricky-cycle", []Topic{TopicCycle}},
				{"block", "Blocks everything downstream of a dead task at once, instead of leaving it PENDING for ever, and blocks newcomers on arrival.", "blocked-on-arrival", "blocked-on-arrival", []Topic{TopicBlocking}},
				{"root", "Gives every blocked task its root cause, the dead task upstream, not its nearest parent.", "root-cause-down-a-chain", "diamond-redrive", []Topic{TopicRootCause}},
				{"redrive", "Redrives a dead task and decides what it held in dependency order, keeping tasks blocked that another dead root still holds.", "diamond-with-another-dead-root", "two-roots", []Topic{TopicRedrive}},
			}},
		{Name: "Staff", Level: L6,
			Summary: "Runs it in production: workers crash, clocks matter, outages kill hundreds of tasks at once, some tasks will never succeed, and graphs are deep.",
			Points: []RubricPoint{
				{"lease", "Leases with heartbeats, so a crashed worker's task comes back, and an expiry on the last attempt is a death like any other.", "expiry-on-the-last-attempt", "lease-kills-diamond", []Topic{TopicLease}},
				{"fence", "Fences every completion by the lease, so a slow worker that comes back cannot finish a task twice.", "stale-completion", "worker-crash", []Topic{TopicFencing}},
				{"backoff", "Backs off between retries and sends permanent errors to the dead-letter queue at once.", "backoff", "permanent-error", []Topic{TopicBackoff, TopicPermanent}},
				{"bulk", "Operates the dead-letter queue as a whole: groups by root cause, bulk redrive by filter, previewed and paced, an alert on its growth.", "bulk-redrive", "outage", []Topic{TopicRedrive}},
				{"poison", "Caps poison pills: a task that dies again after redrives needs a person, not another automatic retry.", "poison-pill", "poison-pill", []Topic{TopicPoison}},
				{"jitter", "Spreads retries after an outage with jitter, so that they do not stampede the service that just came back.", "retry-storm-jitter", "retry-storm-jitter", nil},
				{"cost", "Costs the cycle check: a DFS per submit is quadratic on a deep chain; an incremental topological order, and one check per batch, are not.", "cost-of-the-cycle-check", "chain-200", nil},
			}},
	}
}

// RubricFor returns the ID of the rubric point a question asks at a
// level: the one it names, or the one whose topics hold its topic; "" if
// none does.
func RubricFor(l Level, q Question) string {
	if q.Rubric != "" {
		return q.Rubric
	}
	for _, rl := range Rubric() {
		if rl.Level != l {
			continue
		}
		for _, pt := range rl.Points {
			if slices.Contains(pt.Topics, q.Topic) {
				return pt.ID
			}
		}
	}
	return ""
}

// RubricLink returns the playground address of a point's exercise, at
// the rubric level's practice level; relative to the site's root.
func RubricLink(l Level, exercise string) string {
	return "./" + playground.Link{Practice: PracticeLink{Level: l, Set: SetBook, Exercise: exercise}}.Query()
}

// ownQueue is the rubric page's way to the other half of the question:
// writing the queue, held to dagq's rules by core/queuetest.
const ownQueue = `<section class="rubric-level" id="mock-interview">
<h2>Mock interview</h2>
<p>Forty-five minutes that walk L4, L5 and L6 as an interviewer would: the clock, what to ask and the probes, and a scoring sheet of the points above (heard, partly, not), with a summary to keep. <a id="start-interview" href="./?interview=new">Start a mock interview ▸</a> — it gives you a link for the candidate, who sees the clock and the question only.</p>
</section>
<section class="rubric-level" id="your-own-queue">
<h2>Bring your own queue</h2>
<p>Write the queue in Go and hold it to dagq's rules at your level: from a dagq checkout,</p>
<pre><code>go run ./cmd/wq practice init --level L4 ../myqueue
cd ../myqueue &amp;&amp; go test</code></pre>
<p>The rules come one at a time, easiest first, then random sequences compared with dagq's queue; a failure is the smallest script that breaks your queue, with a link that plays it here. L5 adds the dead-letter queue, L6 leases, backoff and bulk redrive. Each level's rules: <code>go doc github.com/dagq/dagq/core/queuetest L4Queue</code> (and <code>L5Queue</code>, <code>L6Queue</code>); the way, in docs/practice.md.</p>
</section>
`

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
		b.WriteString("<h2>" + escape.HTML(rl.Name) + ` <span class="muted">· practise at ` + string(rl.Level) + "</span></h2>\n")
		b.WriteString("<p>" + escape.HTML(rl.Summary) + "</p>\n<ul>\n")
		for _, pt := range rl.Points {
			b.WriteString("<li>" + escape.HTML(pt.Text) + ` <span class="rubric-links"><a href="` + escape.HTML(RubricLink(rl.Level, pt.Exercise)) +
				`">exercise: ` + escape.HTML(pt.Exercise) + `</a> · <a href="./?scenario=` + escape.HTML(pt.Scenario) + `">scenario: ` + escape.HTML(pt.Scenario) + "</a></span></li>\n")
		}
		b.WriteString("</ul>\n</section>\n")
	}
	b.WriteString(ownQueue)
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
