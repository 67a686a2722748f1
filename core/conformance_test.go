package core_test

import (
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/core/queuetest"
)

// TestConformance holds the in-memory queue to the conformance suite every
// implementation passes: the rules as table cases, and random operation
// sequences checked against the invariants after every operation.
func TestConformance(t *testing.T) {
	queuetest.Run(t, func(t testing.TB, cfg core.Config) (queuetest.Queue, error) { return core.New(cfg) })
}
