//go:build !linux

package servidor

// soltarArranque is Linux's (arranque_linux.go); elsewhere the system keeps what it maps.
func soltarArranque() {}
