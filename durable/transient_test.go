package durable

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"testing"

	"github.com/dagq/dagq/core"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestTransient: what a worker retries, and what it does not.
func TestTransient(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{&pgconn.PgError{Code: "40001"}, true},
		{&pgconn.PgError{Code: "40P01"}, true},
		{&pgconn.PgError{Code: "08006"}, true},
		{&pgconn.PgError{Code: "57P01"}, true},
		{&pgconn.PgError{Code: "53300"}, true},
		{fmt.Errorf("durable: %w", &net.OpError{Op: "dial", Err: errors.New("connection refused")}), true},
		{fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		{pgconn.ErrConnClosed, true},
		{&pgconn.PgError{Code: "22021"}, false},
		{&pgconn.PgError{Code: "54000"}, false},
		{&pgconn.PgError{Code: "23505"}, false},
		{&core.TaskError{Task: "a", Err: core.ErrStaleLease}, false},
		{errNoDAG("x"), false},
		{context.Canceled, false},
		{nil, false},
	} {
		if got := transient(tt.err); got != tt.want {
			t.Errorf("transient(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
