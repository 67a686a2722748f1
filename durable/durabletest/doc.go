// Package durabletest drives a durable queue through random histories for
// the tests of what reads its rows back: the export of a DAG as a script
// (durable's ExportScript) and the live view's state (internal/live).
//
// A [History] submits a DAG's tasks in a random order, waiting on names
// that may not have arrived and refusing the cycles they close, and hands
// out, completes, fails (some permanently), moves the clock past leases
// and backoffs, and redrives single and poisoned tasks, one random
// operation at a time. The same seed makes the same history.
package durabletest
