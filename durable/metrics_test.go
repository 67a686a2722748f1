package durable_test

import (
	"context"
	"errors"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/dagq/dagq/core"
	"github.com/dagq/dagq/durable"
)

// TestMetrics: a worker runs a DAG of four tasks, one of which fails for
// good and blocks another, under OpenTelemetry's SDK with a manual reader;
// the counters, histograms and gauges say so.
func TestMetrics(t *testing.T) {
	t.Parallel()
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	db := openDB(t, durable.Options{MeterProvider: mp})
	q, err := db.Queue(bg, "m", core.Config{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.SubmitAll(bg, []durable.NewTask{{Name: "a"}, {Name: "b"}, {Name: "bad"}, {Name: "after", Deps: []string{"bad"}}}); err != nil {
		t.Fatal(err)
	}
	w := durable.NewWorker(db, func(ctx context.Context, task durable.Task) error {
		if task.Name == "bad" {
			return errors.New("no")
		}
		return nil
	}, durable.WorkerOptions{OnError: quiet(t)})
	stop := startWorker(t, w)
	waitFor(t, "every task settled", func() bool { _, ok := settledStates(t, q); return ok })
	stop()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(bg, &rm); err != nil {
		t.Fatal(err)
	}
	sums := map[string]int64{}
	counts := map[string]uint64{}
	gauge := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					sums[m.Name] += p.Value
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					counts[m.Name] += p.Count
				}
			case metricdata.Gauge[int64]:
				for _, p := range d.DataPoints {
					key := m.Name
					if s, ok := p.Attributes.Value("state"); ok {
						key += "/" + s.AsString()
					}
					gauge[key] += p.Value
				}
			}
		}
	}
	for name, want := range map[string]int64{"dagq.completions": 2, "dagq.failures": 1, "dagq.expiries": 0} {
		if sums[name] != want {
			t.Errorf("%s = %d, want %d", name, sums[name], want)
		}
	}
	for name, want := range map[string]uint64{"dagq.handout.latency": 3, "dagq.handler.duration": 3} {
		if counts[name] != want {
			t.Errorf("%s counted %d, want %d", name, counts[name], want)
		}
	}
	for name, want := range map[string]int64{"dagq.tasks/SUCCEEDED": 2, "dagq.tasks/DEAD": 1, "dagq.tasks/BLOCKED": 1, "dagq.dlq.size": 2} {
		if gauge[name] != want {
			t.Errorf("%s = %d, want %d", name, gauge[name], want)
		}
	}
}
