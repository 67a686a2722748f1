// Package live serves the durable queue's DAGs to a browser: what
// `wq serve --db URL` adds to the playground's site. It is the operator's
// console on a live Postgres queue, built on durable's own operator calls
// (the ones `wq db` makes), never on queries of its own.
//
// Routes (see [New]):
//
//	GET  /dags                              the list of the database's DAGs, updated live
//	GET  /dags/rows                         the list's rows alone, as HTML, for the page to swap in
//	GET  /api/live/info                     whether this page may act: {"readOnly","token"}
//	GET  /api/live/dags                     the list as JSON (durable.DB.DAGs)
//	GET  /api/live/events[?dag=D]           server-sent events: "changed" when D (or any DAG) changed
//	GET  /api/live/dags/{dag}/state         D's state as data, which the live view draws (durable.DB.State)
//	GET  /api/live/dags/{dag}/script        a scenario script rebuilding D's state (durable.DB.ExportScript)
//	GET  /api/live/dags/{dag}/tasks/{name}  a task's detail (durable.DB.TaskDetail)
//	POST /api/live/dags/{dag}/preview       what a redrive of a group would do, changing nothing
//	POST /api/live/dags/{dag}/redrive       redrive a group, at once or at a rate
//	POST /api/live/dags/{dag}/cancel        stop a redrive at a rate
//	POST /api/live/dags/{dag}/force         the forced redrive of one poisoned task
//
// The live view of a DAG is the playground itself, opened as /?live=DAG: it
// loads the script, shows it at its last step, and loads it again when the
// events say the DAG changed. The state is the same DAG as data, from
// which the page's model can be built without a replay
// (playground.Page.OpenLiveState, tested to draw as the replay does).
//
// # Safety
//
// A request that changes the queue (redrive, cancel, force) must carry the
// server's token in the X-Dagq-Token header, come from the page's own
// origin (its Origin header, when it has one, names this server; its
// Sec-Fetch-Site, when it has one, is same-origin), and reach a server not
// started read-only; else it is refused with 403 and changes nothing.
// Every POST is checked for origin; every request for its Host, when the
// server is told which hosts are its own (a page of another site that made
// its name resolve to 127.0.0.1 reads nothing). Every action is logged with
// what it did, to which DAG and how many tasks.
//
// # Bounds
//
// One poller per server reads the DAGs' summaries (durable.DB.DAGs), only
// while a page listens, at most every [MinPoll] and never busier than a
// fifth of the time; a DAG whose summary changed is announced to its
// listeners, each holding a one-slot mailbox, so a busy DAG costs a page at
// most one event per poll and a slow page never queues events. The
// streams are at most Options.Streams; the routes that read a whole DAG
// run at most Options.Reads at once, each bounded by a timeout.
package live
