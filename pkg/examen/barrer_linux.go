package examen

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// barrer kills every process whose environment carries VariableCorrida=marca: whatever a client
// run started, however it detached (setsid, a double fork that left its process group), as long as
// it kept the environment it was given. It repeats until none is left, for a parent that forks
// while it is being killed.
func barrer(marca string) {
	if marca == "" {
		return // an empty mark is every run's: nothing is whose alone
	}
	buscado := []byte(VariableCorrida + "=" + marca + "\x00")
	yo := os.Getpid()
	for range 10 {
		entradas, err := os.ReadDir("/proc")
		if err != nil {
			return
		}
		matados := 0
		for _, e := range entradas {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == yo {
				continue
			}
			env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
			if err != nil || !bytes.Contains(append([]byte{0}, env...), append([]byte{0}, buscado...)) {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				matados++
			}
		}
		if matados == 0 {
			return
		}
	}
}
