package durable_test

import (
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/queuetest"
	"github.com/dagq/dagq/durable"
)

// TestConformance runs the conformance suite against the durable queue:
// each queue the suite opens is a DAG of its own in one database, which
// costs one row.
func TestConformance(t *testing.T) {
	db := openDB(t, durable.Options{VirtualClock: true})
	queuetest.Run(t, func(t testing.TB, cfg core.Config) (queuetest.Queue, error) {
		return openQueue(t, db, cfg), nil
	})
}
