//go:build !linux

package main

// intrusoSiLoEs: the class network test, and its intruder, are Linux's (clase_red_e2e_test.go).
func intrusoSiLoEs() {}
