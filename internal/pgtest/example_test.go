package pgtest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/dagq/dagq/internal/pgtest"
	"github.com/jackc/pgx/v5"
)

// A test asks for a database with pgtest.New(t); code without a testing.TB
// takes the binary's server with Default. TestExample runs it and checks
// that it prints "1 + 1 = 2"; without PostgreSQL, Default's error is
// pgtest.ErrNoPostgres, and the test is skipped.
func Example() {
	s, err := pgtest.Default()
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, s.URL())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT 1 + 1").Scan(&n); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("1 + 1 = %d\n", n)
}

// TestExample runs Example, which has no Output line (it needs a server),
// and checks what it prints; without PostgreSQL it is skipped.
func TestExample(t *testing.T) {
	if got := pgtest.Output(t, Example); got != "1 + 1 = 2\n" {
		t.Errorf("Example printed %q, want %q", got, "1 + 1 = 2\n")
	}
}
