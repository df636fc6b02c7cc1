// Package e2e holds the suite's soak and fault tests: they start the real built programs on
// ephemeral ports and prove, from outside, what a unit test cannot — nothing duplicated or lost under
// sustained retries, restarts survived honestly, slow clients cut off. `go test -short` skips them.
package e2e
