package examen

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

var subreaper sync.Once

// adoptar makes the grader a child subreaper, once per process: a process whose parent ends (what
// a client left behind with setsid or a double fork, once the client exits) becomes the grader's
// child instead of init's, so barrer finds it even when it cleared its environment.
func adoptar() {
	subreaper.Do(func() {
		// Without it (a kernel before 3.4) the session and the mark still find all but the
		// processes that left both.
		unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) //nolint:errcheck // see above
	})
}

// barrer stops what the client run pid (already waited for) with mark marca left behind, however
// it detached:
//   - every process in its session (pid: it led one, see agrupar) or with VariableCorrida=marca in
//     its environment: what left its group (a double fork, setpgid) or its session (setsid);
//   - every process the grader adopted (adoptar) that is no running client's — in none's session
//     or group, with none's mark — and its descendants: what left the session and cleared its
//     environment as well (setsid, then env -i). Nothing says whose such a process is, so one of a
//     client still running goes too (docs/comprobar.md).
//
// The grader's other children share its session (a compiler a test runs, pgefimero's PostgreSQL)
// and are never touched; an adopted process that ended is reaped, so none lingers as a zombie. It
// repeats until nothing is left, for a parent that forks while it is being killed.
func barrer(pid int, marca string) {
	// Under the lock no client starts: a new one is written down before a sweep sees it.
	clientes.Lock()
	defer clientes.Unlock()
	yo := os.Getpid()
	miSesion, _ := unix.Getsid(0)
	vivas := map[string]bool{}
	for _, m := range clientes.vivos {
		vivas[m] = m != ""
	}
	if _, ok := clientes.vivos[pid]; ok {
		pid = 0 // the pid was reused already: its session is another client's
	}
	for range 10 {
		ps, err := leerProcesos()
		if err != nil {
			return
		}
		hijos := map[int][]int{}
		for _, p := range ps {
			hijos[p.ppid] = append(hijos[p.ppid], p.pid)
		}
		matar := map[int]bool{}
		var raices, recoger []int
		for _, p := range ps {
			if _, cliente := clientes.vivos[p.pid]; cliente || p.pid == yo {
				continue
			}
			adoptado := p.ppid == yo && p.sid != miSesion
			if p.zombi {
				if adoptado {
					recoger = append(recoger, p.pid)
				}
				continue
			}
			m := ""
			if marca != "" || adoptado {
				m = marcaDe(p.pid)
			}
			_, sesionViva := clientes.vivos[p.sid]
			_, grupoVivo := clientes.vivos[p.pgid]
			switch {
			case pid > 0 && (p.sid == pid || p.pgid == pid), marca != "" && m == marca:
				matar[p.pid] = true
			case adoptado && !sesionViva && !grupoVivo && !vivas[m]:
				raices = append(raices, p.pid)
			}
		}
		for len(raices) > 0 {
			p := raices[len(raices)-1]
			raices = raices[:len(raices)-1]
			matar[p] = true
			raices = append(raices, hijos[p]...)
		}
		if len(matar) == 0 && len(recoger) == 0 {
			return
		}
		var fds []int
		for p := range matar {
			if slices.Contains(hijos[yo], p) {
				recoger = append(recoger, p) // adopted: a zombie of the grader's once killed
			}
			// By a pidfd, so a pid reused since /proc was read is never signalled.
			fd, err := unix.PidfdOpen(p, 0)
			if errors.Is(err, unix.ENOSYS) {
				unix.Kill(p, unix.SIGKILL) //nolint:errcheck // gone already, or not ours to kill
				continue
			}
			if err != nil {
				continue // gone already
			}
			if unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0) == nil {
				fds = append(fds, fd)
			} else {
				unix.Close(fd)
			}
		}
		esperarFin(fds, time.Second)
		for _, p := range recoger {
			unix.Wait4(p, nil, unix.WNOHANG, nil) //nolint:errcheck // one still alive is spared, or reaped next pass
		}
	}
}

// proceso is what /proc/PID/stat says of one process.
type proceso struct {
	pid, ppid, pgid, sid int
	zombi                bool
}

// leerProcesos lists the machine's processes.
func leerProcesos() ([]proceso, error) {
	entradas, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var ps []proceso
	for _, e := range entradas {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // it ended meanwhile
		}
		// pid (comm) state ppid pgrp session …; comm may hold spaces and parentheses.
		c := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
		if len(c) < 4 {
			continue
		}
		p := proceso{pid: pid, zombi: c[0][0] == 'Z' || c[0][0] == 'X'}
		p.ppid, _ = strconv.Atoi(string(c[1]))
		p.pgid, _ = strconv.Atoi(string(c[2]))
		p.sid, _ = strconv.Atoi(string(c[3]))
		ps = append(ps, p)
	}
	return ps, nil
}

// marcaDe is the VariableCorrida a process was started with; "" without one, or when its
// environment cannot be read (another user's).
func marcaDe(pid int) string {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return ""
	}
	for v := range bytes.SplitSeq(env, []byte{0}) {
		if m, ok := bytes.CutPrefix(v, []byte(VariableCorrida+"=")); ok {
			return string(m)
		}
	}
	return ""
}

// esperarFin waits, within plazo in all, until every process of fds (pidfds) has ended, and
// closes them: the adopted ones are then zombies to reap.
func esperarFin(fds []int, plazo time.Duration) {
	limite := time.Now().Add(plazo)
	for _, fd := range fds {
		pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			_, err := unix.Poll(pfd, int(max(time.Until(limite), 0).Milliseconds()))
			if err != unix.EINTR {
				break
			}
		}
		unix.Close(fd)
	}
}
