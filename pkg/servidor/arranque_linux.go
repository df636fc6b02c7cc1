package servidor

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// soltarArranque unmaps the program's read-only pages (its code and constant data) once the server
// is about to serve; those it still uses come back on first touch, one by one. Start-up touched
// pages of every package the program links, and Linux maps whole runs of the file around each page
// touched: the revisor, which carries the course's client programs and two databases' drivers,
// held 15 MB of its binary after starting, most of it never used again by a server. The pages stay
// in the page cache, shared with any other copy, so nothing is read again from disk. Only
// read-only mappings of the executable are touched: writable data is never dropped.
func soltarArranque() {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return
	}
	mapas, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	s := bufio.NewScanner(bytes.NewReader(mapas))
	for s.Scan() {
		// 00400000-00d83000 r-xp 00000000 fe:00 9986162   /ruta/al/binario
		campos := bytes.Fields(s.Bytes())
		if len(campos) < 6 || string(campos[5]) != exe || (string(campos[1]) != "r-xp" && string(campos[1]) != "r--p") {
			continue
		}
		desde, hasta, ok := bytes.Cut(campos[0], []byte("-"))
		if !ok {
			continue
		}
		a, err1 := strconv.ParseUint(string(desde), 16, 64)
		b, err2 := strconv.ParseUint(string(hasta), 16, 64)
		if err1 != nil || err2 != nil || b <= a {
			continue
		}
		syscall.Syscall(syscall.SYS_MADVISE, uintptr(a), uintptr(b-a), syscall.MADV_DONTNEED)
	}
}
