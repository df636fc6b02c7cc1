//go:build unix && !linux

package main

import (
	"errors"
	"os/exec"
)

// Network namespaces are Linux's: elsewhere (macOS, the BSDs) scenes run one after another on the
// machine's own ports.

func redDisponible(string) bool { return false }

func enRedPropia(*exec.Cmd) {}

func levantarLo() error { return errors.New("sin espacios de red propios fuera de Linux") }

func espacioDeRed() string { return "" }
