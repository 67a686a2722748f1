package bench

import (
	"testing"

	"github.com/dagq/dagq/internal/pgtest"
)

// TestMain stops the throwaway PostgreSQL cluster of the durable benchmarks,
// if they started one.
func TestMain(m *testing.M) { pgtest.Main(m) }
