package durable

import "time"

// localNow is the process's own clock, which a worker reads only to measure
// durations on it (a fetch's cooldown, a handler's duration, how long since
// a heartbeat was answered) and never to judge a deadline: every deadline is
// the database's (see [Clock]). A variable only so that a test can run a
// worker process whose clock is skewed (Go reads the time through the vDSO,
// out of reach of an LD_PRELOAD time faker); the skewed clock it sets keeps
// the monotonic reading, as a machine whose wall clock is wrong does.
var localNow = time.Now
