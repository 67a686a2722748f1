// Package pgtest gives tests a real PostgreSQL server, cheaply: one per
// test binary, and a fresh, empty database for each test that asks.
//
// When DAGQ_DATABASE_URL is set, the tests use that server: it must accept
// CREATE DATABASE from the URL's user. Otherwise the first test that asks
// starts a throwaway cluster from Debian's PostgreSQL binaries (the newest
// /usr/lib/postgresql/*/bin, or PG_BINDIR when set): initdb in a temporary
// directory, a server that listens on a Unix socket in that directory only
// (no TCP port, so test binaries running side by side never clash), with
// fsync, synchronous_commit and full_page_writes off, since a test's data
// need not survive a power cut. Run as root, the cluster belongs to the
// user "postgres" (or "nobody" when there is none) and the server runs as
// that user, since PostgreSQL refuses to run as root. When no PostgreSQL
// binaries exist at all, the tests that need a server are skipped with a
// message that says how to install them.
//
// A package's TestMain calls [Main], which stops the server and removes its
// directory when the tests end:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// If the test binary is killed instead (SIGKILL, a panic in TestMain, a
// go test -timeout), the server gets SIGQUIT from the kernel as its parent
// dies (Linux's parent-death signal) and shuts down at once, and the next
// test binary that starts a cluster removes the directories that dead
// binaries left behind, stopping any server still running in one.
//
// [New] gives a test its own database, created for it and dropped when it
// ends (a few tens of milliseconds; [SynchronousCommit] for one whose
// commits must survive a crash of the server); [Shared] gives the server itself, to
// stop and start again on the same data directory ([Server.Crash] and
// [Server.Start]), as the crash tests do. [Durable] gives a second
// throwaway cluster that runs with fsync, synchronous_commit and
// full_page_writes on, as a production server does ([Server.New] makes a
// database on it), for a benchmark that must count the cost of a commit
// reaching the disk.
package pgtest
