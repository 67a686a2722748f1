package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL is the environment variable that points the tests at a server of
// one's own instead of a throwaway cluster.
const EnvURL = "DAGQ_DATABASE_URL"

// dirPrefix names the throwaway clusters' directories in os.TempDir, so
// that a later run can find and remove the ones a killed binary left.
const dirPrefix = "dagq-pgtest-"

// ErrNoPostgres is why the tests that need a server are skipped: neither
// DAGQ_DATABASE_URL nor PostgreSQL's binaries.
var ErrNoPostgres = errors.New("pgtest: no PostgreSQL: set " + EnvURL +
	" or install Debian's postgresql (apt-get install postgresql)")

// Server is a PostgreSQL server for tests: the one DAGQ_DATABASE_URL names,
// or a throwaway cluster this package started. Its methods are safe for
// concurrent use.
type Server struct {
	url string // the connection string of its maintenance database

	// A throwaway cluster only (bin is "" for DAGQ_DATABASE_URL):
	bin  string              // the directory of initdb, postgres and pg_ctl
	dir  string              // the cluster's directory: data/ and the socket
	cred *syscall.Credential // the user the server runs as; nil: this process's
	// fsync is whether the cluster runs with fsync, synchronous_commit and
	// full_page_writes on, as a production server does ([Durable]'s), or
	// with all three off, as a test's may ([Shared]'s).
	fsync bool

	mu   sync.Mutex
	proc *exec.Cmd     // the running postmaster; nil when stopped
	done chan struct{} // closed when proc has been waited for
}

var (
	sharedOnce sync.Once
	shared     *Server
	sharedErr  error

	durableOnce sync.Once
	durable     *Server
	durableErr  error
)

// Shared returns the test binary's server, starting it on the first call.
// It skips the test when there is no PostgreSQL at all, and fails it when
// a server should be there and cannot be started.
func Shared(t testing.TB) *Server {
	t.Helper()
	s, err := Default()
	if errors.Is(err, ErrNoPostgres) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Default returns the test binary's server, starting it on the first call,
// for code that has no testing.TB (an Example, a benchmark's setup). The
// error is ErrNoPostgres when there is no PostgreSQL at all.
func Default() (*Server, error) {
	sharedOnce.Do(func() { shared, sharedErr = start(false) })
	return shared, sharedErr
}

// Durable returns the test binary's second throwaway cluster, starting it on
// the first call: one that runs with fsync, synchronous_commit and
// full_page_writes on, as a production server does, so that every commit
// waits for its WAL to reach the disk. fsync is a setting of the whole
// server, so this is a cluster of its own beside [Shared]'s, with its own
// databases ([Server.New]); a benchmark that compares the two measures what
// durability costs. When DAGQ_DATABASE_URL is set, it is that server, as
// it is configured (SHOW fsync says which). Like [Shared], it skips the
// test when there is no PostgreSQL at all.
func Durable(t testing.TB) *Server {
	t.Helper()
	durableOnce.Do(func() {
		if os.Getenv(EnvURL) != "" {
			durable, durableErr = Default()
			return
		}
		durable, durableErr = start(true)
	})
	if errors.Is(durableErr, ErrNoPostgres) {
		t.Skip(durableErr)
	}
	if durableErr != nil {
		t.Fatal(durableErr)
	}
	return durable
}

// Main runs the tests of a package and then stops the server, if one was
// started, and removes its directory. Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// Stop stops the servers, if this test binary started any ([Shared]'s and
// [Durable]'s), and removes their directories: for a TestMain that does
// more than [Main] does, after m.Run.
func Stop() {
	for _, s := range []*Server{shared, durable} {
		if s != nil {
			if err := s.close(); err != nil {
				fmt.Fprintln(os.Stderr, err)
			}
		}
	}
}

// URL is the connection string of the server's maintenance database
// ("postgres" on a throwaway cluster), for statements that are about the
// server rather than one test's data.
func (s *Server) URL() string { return s.url }

// Throwaway reports whether this package started the server (and so it may
// be stopped and started again), rather than DAGQ_DATABASE_URL naming it.
func (s *Server) Throwaway() bool { return s.bin != "" }

// start finds or starts the server; a throwaway one with fsync on or off.
func start(fsync bool) (*Server, error) {
	if u := os.Getenv(EnvURL); u != "" {
		s := &Server{url: u}
		if err := s.ping(10 * time.Second); err != nil {
			return nil, fmt.Errorf("pgtest: %s=%s: %w", EnvURL, u, err)
		}
		return s, nil
	}
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	sweep(bin)
	dir, err := os.MkdirTemp("", dirPrefix)
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	s := &Server{bin: bin, dir: dir, fsync: fsync}
	if err := s.init(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := s.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// binDir is PG_BINDIR, or the newest /usr/lib/postgresql/N/bin that holds
// initdb.
func binDir() (string, error) {
	if d := os.Getenv("PG_BINDIR"); d != "" {
		return d, nil
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(found) == 0 {
		return "", ErrNoPostgres
	}
	sort.Slice(found, func(i, j int) bool { return version(found[i]) > version(found[j]) })
	return filepath.Dir(found[0]), nil
}

// version is N of /usr/lib/postgresql/N/bin/initdb.
func version(initdb string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return n
}

// init makes the cluster: its directory owned by the user the server will
// run as, then initdb with the superuser "postgres" and trust on the socket.
func (s *Server) init() error {
	if os.Geteuid() == 0 {
		cred, err := serverUser()
		if err != nil {
			return err
		}
		s.cred = cred
		if err := os.Chown(s.dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fmt.Errorf("pgtest: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(s.dir, "owner.pid"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	out, err := s.command("initdb", "-D", s.data(), "-U", "postgres", "-A", "trust",
		"-E", "UTF8", "--locale=C", "--no-sync").CombinedOutput()
	if err != nil {
		return fmt.Errorf("pgtest: initdb: %v\n%s", err, out)
	}
	return nil
}

// serverUser is the user a cluster made by root runs as: "postgres", which
// Debian's package creates, else "nobody".
func serverUser() (*syscall.Credential, error) {
	var last error
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			last = err
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
	}
	return nil, fmt.Errorf("pgtest: running as root, and no user to run PostgreSQL as: %w", last)
}

func (s *Server) data() string { return filepath.Join(s.dir, "data") }

// command runs one of the cluster's binaries as the server's user.
func (s *Server) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd
}

// Start starts the throwaway server on its data directory, again after
// Crash, and waits until it accepts connections. Starting a running
// server does nothing.
func (s *Server) Start() error {
	if !s.Throwaway() {
		return errors.New("pgtest: the server of " + EnvURL + " is not ours to start")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc != nil {
		return nil
	}
	durability := "off"
	if s.fsync {
		durability = "on"
	}
	cmd := s.command("postgres", "-D", s.data(),
		"-c", "listen_addresses=",
		"-c", "unix_socket_directories="+s.dir,
		"-c", "fsync="+durability,
		"-c", "synchronous_commit="+durability,
		"-c", "full_page_writes="+durability,
		"-c", "max_connections=200",
		"-c", "shared_buffers=32MB",
		"-c", "log_min_messages=FATAL")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred, Pdeathsig: syscall.SIGQUIT}
	log, err := os.OpenFile(filepath.Join(s.dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		log.Close()
		return fmt.Errorf("pgtest: postgres: %w", err)
	}
	log.Close()
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }() // how it exited: see server.log
	s.proc, s.done = cmd, done
	q := url.Values{"host": {s.dir}, "sslmode": {"disable"}}
	s.url = "postgres://postgres@/postgres?" + q.Encode()
	if err := s.ping(30 * time.Second); err != nil {
		tail, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
		return fmt.Errorf("pgtest: the server did not come up: %w\n%s", err, tail)
	}
	return nil
}

// Crash stops the throwaway server as a crash would: pg_ctl stop -m
// immediate, no checkpoint, so the next Start recovers from the WAL.
// Connections open at the time are broken.
func (s *Server) Crash() error { return s.stop("immediate") }

// stop stops the postmaster in a pg_ctl mode and waits for it to exit.
func (s *Server) stop(mode string) error {
	if !s.Throwaway() {
		return errors.New("pgtest: the server of " + EnvURL + " is not ours to stop")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil {
		return nil
	}
	out, err := s.command("pg_ctl", "stop", "-D", s.data(), "-m", mode, "-w").CombinedOutput()
	if err != nil {
		_ = s.proc.Process.Signal(syscall.SIGQUIT) // it may have exited; done says when
	}
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		_ = s.proc.Process.Kill() // as above
		<-s.done
	}
	s.proc = nil
	if err != nil {
		return fmt.Errorf("pgtest: pg_ctl stop -m %s: %v\n%s", mode, err, out)
	}
	return nil
}

// close stops the server at the end of the test binary and removes its
// directory.
func (s *Server) close() error {
	if !s.Throwaway() {
		return nil
	}
	err := s.stop("immediate")
	if rmErr := os.RemoveAll(s.dir); err == nil {
		err = rmErr
	}
	return err
}

// ping waits until the server answers a query, or the time is up.
func (s *Server) ping(within time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, s.url)
		if err == nil {
			_, err = conn.Exec(ctx, "SELECT 1")
			conn.Close(ctx)
			if err == nil {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// sweep removes the clusters that test binaries killed before their end
// left in os.TempDir: those whose owner.pid names a process that is gone.
// A server still running in one is stopped first.
func sweep(bin string) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), dirPrefix+"*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, "owner.pid"))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || alive(pid) {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "data", "postmaster.pid")); err == nil {
			old := &Server{bin: bin, dir: dir}
			if os.Geteuid() == 0 {
				old.cred, _ = serverUser()
			}
			_ = old.command("pg_ctl", "stop", "-D", old.data(), "-m", "immediate", "-w").Run() // best effort: its folder goes next
		}
		os.RemoveAll(dir)
	}
}

// alive reports whether a process with this pid exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
