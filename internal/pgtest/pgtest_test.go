package pgtest_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dagq/dagq/internal/pgtest"
	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestEachTestGetsItsOwnEmptyDatabase(t *testing.T) {
	ctx := context.Background()
	start := time.Now()
	a := pgtest.New(t)
	t.Logf("a fresh database took %v (the first includes starting the server)", time.Since(start))
	start = time.Now()
	b := pgtest.New(t)
	t.Logf("another took %v", time.Since(start))
	if a == b {
		t.Fatalf("two databases with one connection string %q", a)
	}
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	if _, err := ca.Exec(ctx, "CREATE TABLE t (x int)"); err != nil {
		t.Fatal(err)
	}
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	var n int
	if err := cb.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 't'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("a table made in one test's database shows in another's")
	}
}

func TestTheServerSurvivesACrashAndKeepsCommittedData(t *testing.T) {
	s := pgtest.Shared(t)
	if !s.Throwaway() {
		t.Skip("the server of DAGQ_DATABASE_URL is not ours to crash")
	}
	ctx := context.Background()
	u := pgtest.New(t, pgtest.SynchronousCommit)
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE t (x int); INSERT INTO t VALUES (7)"); err != nil {
		t.Fatal(err)
	}
	if err := s.Crash(); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "SELECT 1"); err == nil {
		t.Fatal("a connection made before the crash still answers")
	}
	conn.Close(ctx)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	conn, err = pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var x int
	if err := conn.QueryRow(ctx, "SELECT x FROM t").Scan(&x); err != nil {
		t.Fatal(err)
	}
	if x != 7 {
		t.Fatalf("after the restart x = %d, want 7", x)
	}
}

func TestTheServerDoesNotRunAsRoot(t *testing.T) {
	s := pgtest.Shared(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, s.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var fsync, sock string
	if err := conn.QueryRow(ctx, "SELECT current_setting('fsync'), current_setting('listen_addresses')").Scan(&fsync, &sock); err != nil {
		t.Fatal(err)
	}
	if s.Throwaway() && (fsync != "off" || sock != "") {
		t.Fatalf("fsync = %q, listen_addresses = %q; want off and none", fsync, sock)
	}
	var pid int
	if err := conn.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("the server's processes are not on this machine: %v", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "Uid:" {
			t.Logf("the server runs as uid %s", f[1])
			if f[1] == "0" {
				t.Fatal("the server runs as root")
			}
			return
		}
	}
	t.Fatal("no Uid line in the status of the server's process")
}

// TestDurableRunsWithFsyncAndSharedWithout: the two throwaway clusters
// differ in the settings that make a commit reach the disk, and each gives
// databases of its own.
func TestDurableRunsWithFsyncAndSharedWithout(t *testing.T) {
	if os.Getenv(pgtest.EnvURL) != "" {
		t.Skip("DAGQ_DATABASE_URL's server is as it is configured")
	}
	ctx := context.Background()
	settings := func(u string) string {
		conn, err := pgx.Connect(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		var fsync, commit, pages string
		if err := conn.QueryRow(ctx, "SELECT current_setting('fsync'), current_setting('synchronous_commit'), current_setting('full_page_writes')").Scan(&fsync, &commit, &pages); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("fsync=%s synchronous_commit=%s full_page_writes=%s", fsync, commit, pages)
	}
	on := pgtest.Durable(t)
	if on == pgtest.Shared(t) || on.URL() == pgtest.Shared(t).URL() {
		t.Fatal("Durable is Shared's server")
	}
	if got, want := settings(on.New(t)), "fsync=on synchronous_commit=on full_page_writes=on"; got != want {
		t.Errorf("Durable's database: %s, want %s", got, want)
	}
	if got, want := settings(pgtest.New(t)), "fsync=off synchronous_commit=off full_page_writes=off"; got != want {
		t.Errorf("Shared's database: %s, want %s", got, want)
	}
}
