//go:build !linux

package examen

// barrer: only Linux lets the grader find a detached process by its environment. Elsewhere what
// stays in the client's process group is stopped (unix) or only the client itself (Windows); a
// process that detached from its group outlives the grading (docs/comprobar.md).
func barrer(string) {}
