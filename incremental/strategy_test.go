package incremental_test

import (
	"testing"

	"github.com/dagq/dagq/incremental"
	"github.com/dagq/dagq/incremental/strategytest"
)

func TestStrategies(t *testing.T) {
	for _, name := range incremental.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			strategytest.Exercise(t, name, func() incremental.Strategy {
				s, err := incremental.New(name)
				if err != nil {
					t.Fatal(err)
				}
				return s
			})
		})
	}
}
