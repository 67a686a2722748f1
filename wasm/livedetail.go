//go:build js && wasm

package main

import (
	"net/url"

	"github.com/dagq/dagq/internal/playground"
)

// liveDetail is the detail panel's task of a live DAG, read from the
// server (playground.LiveDetail): the panel shows it in place of the
// script's fold, and it is read again at every load of the DAG while the
// panel is open.
type liveDetail struct {
	task    string // the task read, or being read
	loading bool
	ok      bool
	detail  playground.TaskDetail
}

// detail returns the live detail of task if it has been read; else it
// asks the server for it, and the panel is drawn again when it comes.
func (v *liveView) detail(task string) (playground.TaskDetail, bool) {
	if v.det.task == task && v.det.ok {
		return v.det.detail, true
	}
	v.readDetail(task)
	return playground.TaskDetail{}, false
}

// readDetail asks the server for task's detail, unless it is being read.
func (v *liveView) readDetail(task string) {
	if v.det.loading && v.det.task == task {
		return
	}
	if v.det.task != task {
		v.det = liveDetail{task: task}
	}
	v.det.loading = true
	v.fetch("GET", "/api/live/dags/"+url.PathEscape(v.dag)+"/tasks/"+url.PathEscape(task), "", func(status int, body string) {
		if v.det.task != task {
			return // another task was asked for meanwhile
		}
		v.det.loading = false
		o, ok := parseJSON(body)
		if status != 200 || !ok {
			return // the panel keeps the script's fold of the task
		}
		v.det.detail, v.det.ok = liveDetailOf(o).TaskDetail(v.a.p.Session().State), true
		v.a.detail.render()
	})
}

// liveDetailOf reads a playground.LiveDetail parsed by the browser.
func liveDetailOf(o jsonObject) playground.LiveDetail {
	d := playground.LiveDetail{Task: o.str("Task"), State: o.str("State"), Reason: o.str("Reason"), Root: o.str("Root"),
		Poisoned: o.boolean("Poisoned"), Redrives: o.integer("Redrives"), MaxAttempts: o.integer("MaxAttempts"),
		NowMs: int64(o.number("NowMs")), SubmittedMs: int64(o.number("SubmittedMs")), DueMs: int64(o.number("DueMs")),
		WaitsOn: o.strs("WaitsOn"), WaitedOnBy: o.strs("WaitedOnBy"), Args: o.str("Args"), Result: o.str("Result")}
	for _, a := range o.objects("Attempts") {
		d.Attempts = append(d.Attempts, playground.LiveAttempt{N: a.integer("N"), Round: a.integer("Round"), Lease: uint64(a.number("Lease")),
			Worker: a.str("Worker"), Outcome: a.str("Outcome"), Error: a.str("Error"),
			StartedMs: int64(a.number("StartedMs")), EndedMs: int64(a.number("EndedMs")), DeadlineMs: int64(a.number("DeadlineMs"))})
	}
	return d
}
