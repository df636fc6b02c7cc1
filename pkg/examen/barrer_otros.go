//go:build !linux

package examen

// adoptar: only Linux lets a process adopt its descendants' orphans (a child subreaper).
func adoptar() {}

// barrer: only Linux lets the grader find a detached process (by its environment, its session, or
// as an orphan it adopted). Elsewhere what stays in the client's process group is stopped (unix)
// or only the client itself (Windows); a process that left its group outlives the grading
// (docs/comprobar.md).
func barrer(int, string) {}
