package core

import "testing"

// TestFingerprint checks each rule of Fingerprint on real-looking error
// texts: what each becomes, and below, which fall together and which stay
// apart.
func TestFingerprint(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ text, want string }{
		{"HTTP 503 from 10.0.3.7:8080", "HTTP 503 from <addr>"},
		{"HTTP 503 from 10.0.9.12:8080", "HTTP 503 from <addr>"},
		{"HTTP 500 from 10.0.3.7:8080", "HTTP 500 from <addr>"},
		{"GET https://api.example.com/v2/users/81723: HTTP 404", "GET https://api.example.com/v2/users/<n>: HTTP 404"},
		{"dial tcp 10.0.3.7:5432: connect: connection refused", "dial tcp <addr>: connect: connection refused"},
		{"dial tcp [2001:db8::7]:5432: connect: connection refused", "dial tcp <addr>: connect: connection refused"},
		{"dial tcp [::1]:6379: i/o timeout", "dial tcp <addr>: i/o timeout"},
		{"lookup fe80::1ff:fe23:4567:890a: no such host", "lookup <addr>: no such host"},
		{"context deadline exceeded after 30s", "context deadline exceeded after <dur>"},
		{"context deadline exceeded after 1.5s", "context deadline exceeded after <dur>"},
		{"slow query took 1h2m3.5s (limit 250ms)", "slow query took <dur> (limit <dur>)"},
		{"retry in 5min", "retry in 5min"}, // glued to a word: neither a duration nor a number alone
		{`pq: duplicate key value violates unique constraint "users_email_key"`, `pq: duplicate key value violates unique constraint "*"`},
		{`pq: duplicate key value violates unique constraint "orders_pkey"`, `pq: duplicate key value violates unique constraint "*"`},
		{"timeout waiting for response (request id req_8f3a9c2b71d4)", "timeout waiting for response (request id req_<id>)"},
		{"timeout waiting for response (request id 3f2b8c1e-7d4a-4e5f-9a6b-2c8d0e1f3a5b)", "timeout waiting for response (request id <uuid>)"},
		{"S3: NoSuchKey: The specified key does not exist. key='exports/2026/11/30/part-0007.csv'", "S3: NoSuchKey: The specified key does not exist. key='*'"},
		{"S3: NoSuchKey: The specified key does not exist. key='exports/2026/12/01/part-0001.csv'", "S3: NoSuchKey: The specified key does not exist. key='*'"},
		{"panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x4a5b2c]",
			"panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV: segmentation violation code=<hex> addr=<hex> pc=<hex>]"},
		{"panic: runtime error: index out of range [7] with length 3", "panic: runtime error: index out of range [<n>] with length <n>"},
		{"redis: can't connect to `cache-7`: LOADING", "redis: can't connect to `*`: LOADING"},
		{"rate limited: status 429, retry after 12s", "rate limited: status 429, retry after <dur>"},
		{"upstream returned status=502 after 3 attempts", "upstream returned status=502 after <n> attempts"},
		{"disk full: wrote 1048576 of 2097152 bytes to /var/data/shard-12", "disk full: wrote <n> of <n> bytes to /var/data/shard-<n>"},
		{"commit 9fceb02d0ae598e95dc970b74767f19372d61af8 not found", "commit <id> not found"},
		{"sha256 mismatch: got deadbeef, want cafef00d", "sha256 mismatch: got deadbeef, want <id>"},
		{"lease expired", "lease expired"},
		{"  too   many\tspaces  ", "too many spaces"},
		{"", ""},
	} {
		if got := Fingerprint(c.text); got != c.want {
			t.Errorf("Fingerprint(%q)\n = %q\nwant %q", c.text, got, c.want)
		}
	}
}

// TestFingerprintGroups checks which errors fall together and which stay
// apart.
func TestFingerprintGroups(t *testing.T) {
	t.Parallel()
	together := [][]string{
		{"HTTP 503 from 10.0.3.7:8080 after 250ms", "HTTP 503 from 10.0.9.1:8081 after 1.2s"},
		{"connection refused to 10.0.3.7:5432", "connection refused to 192.168.1.20:5432"},
		{"job 1234 failed: exit status 2", "job 98 failed: exit status 1"},
		{`no such table "events_2026_11"`, `no such table "events_2026_12"`},
		{"request 3f2b8c1e-7d4a-4e5f-9a6b-2c8d0e1f3a5b timed out", "request 00000000-0000-4000-8000-000000000000 timed out"},
	}
	for _, g := range together {
		if a, b := Fingerprint(g[0]), Fingerprint(g[1]); a != b {
			t.Errorf("%q and %q fall apart: %q, %q", g[0], g[1], a, b)
		}
	}
	apart := [][]string{
		{"HTTP 503 from 10.0.3.7:8080", "HTTP 500 from 10.0.3.7:8080"},
		{"HTTP 503", "HTTP 404"},
		{"connection refused to 10.0.3.7:5432", "connection reset by 10.0.3.7:5432"},
		{"S3: NoSuchKey", "S3: AccessDenied"},
		{"S3: NoSuchKey", "S4: NoSuchKey"},
	}
	for _, g := range apart {
		if a, b := Fingerprint(g[0]), Fingerprint(g[1]); a == b {
			t.Errorf("%q and %q fall together: %q", g[0], g[1], a)
		}
	}
}

// TestFingerprintAllocations: a text with nothing to replace comes back as
// it is, without allocating; each rule that replaces something makes one
// string.
func TestFingerprintAllocations(t *testing.T) {
	for _, c := range []struct {
		text   string
		allocs float64
	}{
		{"lease expired", 0},
		{"HTTP 503: S3 said NoSuchKey, so can't go on", 0},
		{"job 7 failed", 1},                            // numbers
		{"HTTP 503 from 10.0.3.7:8080 after 250ms", 2}, // addresses, durations
		{"  lease   expired ", 1},                      // spaces
	} {
		if got := testing.AllocsPerRun(100, func() { Fingerprint(c.text) }); got != c.allocs {
			t.Errorf("Fingerprint(%q) allocates %v times, want %v", c.text, got, c.allocs)
		}
	}
}

// fingerprintBenchTexts are error texts as dead tasks carry them, from one
// with nothing to replace to one that meets most rules.
var fingerprintBenchTexts = []struct{ name, text string }{
	{"plain", "lease expired"},
	{"http", "HTTP 503 from 10.0.3.7:8080 after 250ms"},
	{"dial6", "dial tcp [2001:db8::7]:5432: connect: connection refused"},
	{"pq", `pq: duplicate key value violates unique constraint "users_email_key"`},
	{"request", "timeout waiting for response (request id 3f2b8c1e-7d4a-4e5f-9a6b-2c8d0e1f3a5b) after 1.5s"},
	{"panic", "panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x4a5b2c]"},
	{"s3", "S3: NoSuchKey: The specified key does not exist. key='exports/2026/11/30/part-0007.csv'"},
}

func BenchmarkFingerprint(b *testing.B) {
	for _, c := range fingerprintBenchTexts {
		b.Run("text="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				Fingerprint(c.text)
			}
		})
	}
}
