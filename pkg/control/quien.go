package control

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Ocupante is who listens on a port, as far as the system tells: a pid and a program name, either
// of which may be unknown.
type Ocupante struct {
	PID      int
	Programa string
}

func (o Ocupante) String() string {
	switch {
	case o.PID > 0 && o.Programa != "":
		return fmt.Sprintf("%s, pid %d", o.Programa, o.PID)
	case o.PID > 0:
		return fmt.Sprintf("pid %d", o.PID)
	default:
		return o.Programa
	}
}

// Ocupado says whether something listens on host:puerto (a connection is accepted).
func Ocupado(host string, puerto int) bool {
	c, err := net.DialTimeout("tcp", net.JoinHostPort(host, strconv.Itoa(puerto)), 500*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// QuienEscucha asks the system who listens on the TCP port, with the tool each system has (ss or
// lsof, netstat and tasklist on Windows). ok is false when no tool could tell.
func QuienEscucha(ctx context.Context, puerto int) (Ocupante, bool) {
	ctx, cancelar := context.WithTimeout(ctx, 3*time.Second)
	defer cancelar()
	if runtime.GOOS == "windows" {
		return quienEnWindows(ctx, puerto)
	}
	if out, err := exec.CommandContext(ctx, "ss", "-Hltnp", fmt.Sprintf("sport = :%d", puerto)).Output(); err == nil {
		if o, ok := leerSS(out); ok {
			return o, true
		}
	}
	if out, err := exec.CommandContext(ctx, "lsof", "-nP", fmt.Sprintf("-iTCP:%d", puerto), "-sTCP:LISTEN", "-Fpc").Output(); err == nil {
		if o, ok := leerLsof(out); ok {
			return o, true
		}
	}
	return Ocupante{}, false
}

var usuarioSS = regexp.MustCompile(`\("([^"]*)",pid=(\d+)`)

// leerSS reads `ss -Hltnp` output: users:(("revisor",pid=123,fd=3)). Without the right to see
// other users' processes ss prints no users: part, and that is no answer.
func leerSS(out []byte) (Ocupante, bool) {
	m := usuarioSS.FindSubmatch(out)
	if m == nil {
		return Ocupante{}, false
	}
	pid, _ := strconv.Atoi(string(m[2]))
	return Ocupante{PID: pid, Programa: string(m[1])}, true
}

// leerLsof reads `lsof -Fpc` output: a line p<pid> and a line c<command>.
func leerLsof(out []byte) (Ocupante, bool) {
	var o Ocupante
	s := bufio.NewScanner(bytes.NewReader(out))
	for s.Scan() {
		l := s.Text()
		switch {
		case strings.HasPrefix(l, "p") && o.PID == 0:
			o.PID, _ = strconv.Atoi(l[1:])
		case strings.HasPrefix(l, "c") && o.Programa == "":
			o.Programa = l[1:]
		}
	}
	return o, o.PID > 0
}

func quienEnWindows(ctx context.Context, puerto int) (Ocupante, bool) {
	out, err := exec.CommandContext(ctx, "netstat", "-ano", "-p", "TCP").Output()
	if err != nil {
		return Ocupante{}, false
	}
	pid, ok := leerNetstat(out, puerto)
	if !ok {
		return Ocupante{}, false
	}
	o := Ocupante{PID: pid}
	if out, err := exec.CommandContext(ctx, "tasklist", "/FI", fmt.Sprintf("PID eq %d", pid), "/FO", "CSV", "/NH").Output(); err == nil {
		o.Programa = leerTasklist(out)
	}
	return o, true
}

// leerNetstat finds the pid listening on the port in `netstat -ano -p TCP` output:
// "  TCP    127.0.0.1:18080    0.0.0.0:0    LISTENING    4242". The state's name is in the
// system's language, so a listening line is told by its remote address (port 0) instead.
func leerNetstat(out []byte, puerto int) (int, bool) {
	sufijo := ":" + strconv.Itoa(puerto)
	s := bufio.NewScanner(bytes.NewReader(out))
	for s.Scan() {
		f := strings.Fields(s.Text())
		if len(f) != 5 || !strings.EqualFold(f[0], "TCP") || !strings.HasSuffix(f[1], sufijo) || !strings.HasSuffix(f[2], ":0") {
			continue
		}
		if pid, err := strconv.Atoi(f[4]); err == nil && pid > 0 {
			return pid, true
		}
	}
	return 0, false
}

// leerTasklist reads the image name from `tasklist /FO CSV /NH`: "revisor.exe","4242",…
func leerTasklist(out []byte) string {
	l, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	if !strings.HasPrefix(l, `"`) {
		return "" // "INFO: No tasks are running…", in the system's language
	}
	nombre, _, _ := strings.Cut(l[1:], `"`)
	return strings.TrimSuffix(nombre, ".exe")
}
