#!/usr/bin/env bash
# Runs every fuzz target of the module, one after another, for a while each: `make fuzz` (a few
# seconds, what CI runs) and `make fuzz-largo` (minutes). The targets are found in the test files,
# so a new FuzzX is picked up without touching this file. A crasher stays in the package's
# testdata/fuzz/ as go test writes it: fix the package and commit the file as its regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
# A count (Nx) rather than a duration for the short run: Go 1.26's coordinator can end a timed run
# with a bare "context deadline exceeded" and no input (golang/go#75804, fixed in Go 1.27); such an
# ending is reported but not counted as a failure below.
tiempo=${FUZZTIME:-20000x}
GO=${GO:-go}

# The targets are read from the test files go list names for this platform (func FuzzX(f
# *testing.F), as go test -list would list them) rather than with go test -list, which links and
# runs every test binary of the module only to print their names: 10 to 20 s of a 2-core machine.
objetivos=$("$GO" list -f '{{range .TestGoFiles}}{{$.ImportPath}}{{"\t"}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}{{range .XTestGoFiles}}{{$.ImportPath}}{{"\t"}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}' ./... |
  while IFS=$'\t' read -r paquete archivo; do
    sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)([A-Za-z0-9_]* *\*testing\.F) {$/\1/p' "$archivo" | sed "s|^|$paquete |"
  done)
total=$(printf '%s\n' "$objetivos" | grep -c . || true)
echo "fuzz: $total objetivos, $tiempo cada uno"
fallos=0
while read -r paquete objetivo; do
  [ -n "$paquete" ] || continue
  printf '  %-40s %s\n' "$paquete" "$objetivo"
  if ! salida=$("$GO" test -run '^$' -fuzz "^${objetivo}\$" -fuzztime "$tiempo" -fuzzminimizetime 2s "$paquete" 2>&1); then
    if grep -q 'context deadline exceeded' <<<"$salida" && ! grep -q 'Failing input written' <<<"$salida"; then
      echo "    (fin por tiempo sin entrada que falle: golang/go#75804, no cuenta como fallo)"
      continue
    fi
    echo "$salida" | sed 's/^/    /'
    fallos=$((fallos + 1))
  fi
done <<<"$objetivos"
if [ "$fallos" -gt 0 ]; then
  echo "fuzz: $fallos objetivo(s) fallaron; la entrada quedó en testdata/fuzz/ del paquete"
  exit 1
fi
echo "fuzz: ningún fallo"
