package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// seq numbers the databases one test binary makes, with its pid, so that
// names never clash between binaries sharing a DAGQ_DATABASE_URL server.
var seq atomic.Int64

// New creates a fresh, empty database for the test on the binary's
// server and returns its connection string; the database is dropped when
// the test ends (its open connections are cut first). It skips the test
// when there is no PostgreSQL at all.
//
// The database is made from template0 with STRATEGY FILE_COPY, a copy of a
// few megabytes that takes tens of milliseconds on a cluster without
// fsync.
func New(t testing.TB, opts ...Option) string {
	t.Helper()
	return Shared(t).New(t, opts...)
}

// New creates a fresh, empty database for the test on s, as the function
// [New] does on [Shared]'s server: for a test of [Durable]'s.
func (s *Server) New(t testing.TB, opts ...Option) string {
	t.Helper()
	name := fmt.Sprintf("dagq_test_%d_%d", os.Getpid(), seq.Add(1))
	u, err := s.CreateDatabase(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range opts {
		if err := o(s, name); err != nil {
			if derr := s.DropDatabase(name); derr != nil {
				t.Log(derr)
			}
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		if err := s.DropDatabase(name); err != nil {
			t.Log(err)
		}
	})
	return u
}

// Option changes a database New makes.
type Option func(s *Server, name string) error

// SynchronousCommit makes the database's commits synchronous, which the
// throwaway cluster's are not (synchronous_commit=off): a commit then
// returns only once its WAL has been written, so that it survives
// [Server.Crash]. Without it a crash may lose the commits of the last few
// hundred milliseconds, which a test of crash recovery must not allow. With
// fsync off it costs one write to the operating system per commit.
func SynchronousCommit(s *Server, name string) error {
	return s.exec("ALTER DATABASE " + pgx.Identifier{name}.Sanitize() + " SET synchronous_commit = on")
}

// exec runs one statement on the maintenance database.
func (s *Server) exec(sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.url)
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		return fmt.Errorf("pgtest: %s: %w", sql, err)
	}
	return nil
}

// CreateDatabase creates an empty database and returns its connection
// string. Most tests want [New], which also drops it.
func (s *Server) CreateDatabase(name string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.url)
	if err != nil {
		return "", fmt.Errorf("pgtest: %w", err)
	}
	defer conn.Close(ctx)
	id := pgx.Identifier{name}.Sanitize()
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+id+" TEMPLATE template0 STRATEGY FILE_COPY"); err != nil {
		// STRATEGY is PostgreSQL 15's; an older server copies files anyway.
		if !strings.Contains(err.Error(), "strategy") {
			return "", fmt.Errorf("pgtest: create database %s: %w", name, err)
		}
		if _, err := conn.Exec(ctx, "CREATE DATABASE "+id+" TEMPLATE template0"); err != nil {
			return "", fmt.Errorf("pgtest: create database %s: %w", name, err)
		}
	}
	return WithDatabase(s.url, name)
}

// DropDatabase drops a database, cutting its connections.
func (s *Server) DropDatabase(name string) error {
	return s.exec("DROP DATABASE IF EXISTS " + pgx.Identifier{name}.Sanitize() + " WITH (FORCE)")
}

// WithDatabase returns the connection string u with its database replaced
// by name. u is a URL (postgres://…) or keyword/value pairs (host=… …).
func WithDatabase(u, name string) (string, error) {
	if strings.HasPrefix(u, "postgres://") || strings.HasPrefix(u, "postgresql://") {
		p, err := url.Parse(u)
		if err != nil {
			return "", fmt.Errorf("pgtest: %w", err)
		}
		p.Path = "/" + name
		return p.String(), nil
	}
	return u + " dbname=" + name, nil
}
