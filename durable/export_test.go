package durable

import "time"

// SkewLocalClock sets the process's own clock (localNow) d off the real
// one, keeping its monotonic reading, for a worker process of a test.
func SkewLocalClock(d time.Duration) {
	localNow = func() time.Time { return time.Now().Add(d) }
}

// LocalNow is the process's own clock, as the package reads it.
func LocalNow() time.Time { return localNow() }
