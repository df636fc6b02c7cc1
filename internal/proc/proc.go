// Package proc reads what Linux's /proc says of another process — its memory, threads and open
// descriptors — for the tests, the attack campaign and the bench that watch the built servers from
// outside. Elsewhere, or for a process that is gone, every figure is -1.
package proc

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Estado reads a numeric field of /proc/PID/status: VmRSS, VmHWM, RssAnon and RssFile in kB,
// Threads as a count; -1 when it cannot be read.
func Estado(pid int, campo string) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return -1
	}
	for _, l := range bytes.Split(b, []byte("\n")) {
		if c := strings.Fields(string(l)); len(c) >= 2 && c[0] == campo+":" {
			n, err := strconv.ParseInt(c[1], 10, 64)
			if err != nil {
				return -1
			}
			return n
		}
	}
	return -1
}

// Descriptores counts a process's open file descriptors (a server holds one for each connection);
// -1 when they cannot be listed.
func Descriptores(pid int) int64 {
	d, err := os.Open("/proc/" + strconv.Itoa(pid) + "/fd")
	if err != nil {
		return -1
	}
	defer d.Close()
	n := int64(0)
	for {
		nombres, err := d.Readdirnames(4096)
		n += int64(len(nombres))
		if err != nil {
			return n
		}
	}
}
