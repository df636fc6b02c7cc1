//go:build linux

package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"unsafe"
)

// redPropia is how to start a process in a network namespace of its own, where the course's ports
// are free whatever else runs on the machine: as root a plain new namespace, otherwise a user
// namespace too (as `unshare -rn` does), mapping the user to root inside it. The caller tries it
// once (redDisponible); a kernel or a container that forbids either makes the replay sequential.
func redPropia() *syscall.SysProcAttr {
	if os.Geteuid() == 0 {
		return &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET}
	}
	return &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
}

// enRedPropia makes cmd start in a network namespace of its own.
func enRedPropia(cmd *exec.Cmd) { cmd.SysProcAttr = redPropia() }

// redDisponible starts this program in a namespace of its own and asks it to bring its loopback up
// (hijaProbar): true when that worked, so each scene can have a network of its own.
func redDisponible(yo string) bool {
	cmd := exec.Command(yo)
	cmd.Env = append(os.Environ(), variableHija+"="+hijaProbar)
	enRedPropia(cmd)
	return cmd.Run() == nil
}

// levantarLo brings up the loopback of a new network namespace (it starts down), as
// `ip link set lo up` does, without needing iproute2.
func levantarLo() error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	// struct ifreq: the interface's name in 16 bytes, then a union whose first field is the flags.
	var ifr [40]byte
	copy(ifr[:syscall.IFNAMSIZ], "lo")
	ioctl := func(pedido uintptr) error {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), pedido, uintptr(unsafe.Pointer(&ifr[0]))); e != 0 {
			return e
		}
		return nil
	}
	if err := ioctl(syscall.SIOCGIFFLAGS); err != nil {
		return fmt.Errorf("no pude leer el estado de lo: %w", err)
	}
	banderas := binary.NativeEndian.Uint16(ifr[syscall.IFNAMSIZ:])
	binary.NativeEndian.PutUint16(ifr[syscall.IFNAMSIZ:], banderas|syscall.IFF_UP)
	if err := ioctl(syscall.SIOCSIFFLAGS); err != nil {
		return fmt.Errorf("no pude levantar lo: %w", err)
	}
	return nil
}

// espacioDeRed names the network namespace this process is in («4026531840»): the replay lock is
// per namespace, since the ports it guards are.
func espacioDeRed() string {
	enlace, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		return ""
	}
	// «net:[4026531840]»
	return strings.TrimSuffix(strings.TrimPrefix(enlace, "net:["), "]")
}
