package durable

import (
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// transient reports whether err may go away by itself, so that the same
// statement, sent again, may succeed: the database could not be reached or
// the connection was lost (a refused or broken connection, an unexpected
// end of stream, a timeout; SQLSTATE class 08, a server shutting down or
// starting, 57P01–57P03, too many connections, 53300), or another
// transaction was in the way (a serialization failure, 40001, or a
// deadlock, 40P01). Everything else is not: an error Postgres raised about
// the statement or its data (a value it cannot store, a row too big) comes
// back the same every time, and a worker that retried it would keep its
// task RUNNING for ever.
func transient(err error) bool {
	if err == nil {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch c := pe.Code; {
		case strings.HasPrefix(c, "08"), c == "40001", c == "40P01", c == "53300",
			c == "57P01", c == "57P02", c == "57P03":
			return true
		}
		return false
	}
	var ne net.Error
	var ce *pgconn.ConnectError
	return errors.As(err, &ne) || errors.As(err, &ce) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, pgconn.ErrConnClosed) ||
		pgconn.Timeout(err) || pgconn.SafeToRetry(err)
}
