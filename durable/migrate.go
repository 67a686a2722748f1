package durable

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLock is the key of the advisory lock that serialises migrators.
const migrationLock = 0x64616771 // "dagq"

// Migration is one versioned step of the schema, from
// migrations/NNNN_name.sql.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Migrations returns the schema's migrations in version order.
func Migrations() []Migration {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		panic(err)
	}
	var out []Migration
	for _, e := range entries {
		num, name, ok := strings.Cut(strings.TrimSuffix(e.Name(), ".sql"), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			panic("durable: migration file " + e.Name() + " is not NNNN_name.sql")
		}
		b, err := migrationFiles.ReadFile("migrations/" + e.Name())
		if err != nil {
			panic(err)
		}
		out = append(out, Migration{Version: v, Name: name, SQL: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i := 1; i < len(out); i++ {
		if out[i].Version == out[i-1].Version {
			panic(fmt.Sprintf("durable: two migrations of version %d: %s and %s", out[i].Version, out[i-1].Name, out[i].Name))
		}
	}
	return out
}

// Migrate brings the database's schema up to date: each migration not yet
// in dagq_schema_version runs in its own transaction, which records it.
// Migrating an up-to-date database changes nothing; migrators running at
// once are serialised by an advisory lock, so each migration runs once. It
// returns the versions it applied. A lock it cannot release is an error
// too: the lock would hold up every other migrator while conn stays open.
func Migrate(ctx context.Context, conn *pgx.Conn) (applied []int, err error) {
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return nil, fmt.Errorf("durable: migrate: %w", err)
	}
	defer func() {
		if _, uerr := conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock); uerr != nil {
			err = errors.Join(err, fmt.Errorf("durable: migrate: releasing the lock: %w", uerr))
		}
	}()
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS dagq_schema_version (
		version integer PRIMARY KEY,
		name text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return nil, fmt.Errorf("durable: migrate: %w", err)
	}
	for _, m := range Migrations() {
		var done bool
		if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM dagq_schema_version WHERE version = $1)", m.Version).Scan(&done); err != nil {
			return applied, fmt.Errorf("durable: migrate: %w", err)
		}
		if done {
			continue
		}
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO dagq_schema_version (version, name) VALUES ($1, $2)", m.Version, m.Name)
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("durable: migration %04d_%s: %w", m.Version, m.Name, err)
		}
		applied = append(applied, m.Version)
	}
	return applied, nil
}

// MigrateURL connects to the database at url and migrates it (see
// [Migrate]).
func MigrateURL(ctx context.Context, url string) ([]int, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("durable: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return Migrate(ctx, conn)
}
