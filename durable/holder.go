package durable

import (
	"os"
	"strconv"
	"strings"
)

// MaxHolder is the longest lease holder's name kept, in bytes
// (WorkerOptions.ID): a longer one is cut there.
const MaxHolder = 128

// hostPID is the default name of a lease holder: the host's name and the
// process id, host:pid, which is what an operator looks for in a process
// list or a log.
func hostPID() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return holderName(host + ":" + strconv.Itoa(os.Getpid()))
}

// holderName is name as it is stored: storable, at most MaxHolder bytes.
func holderName(name string) string {
	if len(name) > MaxHolder {
		name = strings.ToValidUTF8(name[:MaxHolder], "")
	}
	return storable(name)
}
