package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/dagq/dagq/durable"
)

// metricsCmd is "wq db metrics URL": the gauges the library reports
// through OpenTelemetry (dagq.tasks by DAG and state, dagq.dlq.size by DAG),
// collected once from the database, one line each, as name{attributes}
// value, sorted.
func metricsCmd(ctx context.Context, url string, w io.Writer) error {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer func() { _ = mp.Shutdown(ctx) }() // nothing is exported
	db, err := durable.Open(ctx, url, durable.Options{MeterProvider: mp})
	if err != nil {
		return err
	}
	defer db.Close()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	var lines []string
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if g, ok := m.Data.(metricdata.Gauge[int64]); ok {
				for _, p := range g.DataPoints {
					lines = append(lines, m.Name+labels(p.Attributes)+" "+strconv.FormatInt(p.Value, 10))
				}
			}
		}
	}
	sort.Strings(lines)
	if len(lines) == 0 {
		fmt.Fprintln(w, "no tasks")
	}
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w, "# dagq.completions, dagq.failures, dagq.expiries, dagq.handout.latency and dagq.handler.duration")
	fmt.Fprintln(w, "# are counted by the processes that run the queue: export them there (durable.Options.MeterProvider)")
	return nil
}

// labels is a set of attributes as {k="v",...}, keys sorted.
func labels(set attribute.Set) string {
	var kv []string
	for _, a := range set.ToSlice() {
		kv = append(kv, string(a.Key)+"="+strconv.Quote(a.Value.String()))
	}
	slices.Sort(kv)
	return "{" + strings.Join(kv, ",") + "}"
}
