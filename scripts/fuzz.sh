#!/usr/bin/env bash
# Runs every fuzz target of the module, one after another, for a while each: `make fuzz` (a few
# seconds each, what CI runs after make test) and `make fuzz-largo` (minutes). The targets are found
# in the test files, so a new FuzzX is picked up without touching this file. A finding fails the run
# with one line that reproduces it; go test wrote its input into the package's testdata/fuzz/, where
# it would fail every later make test until fixed, so it is moved to $HALLAZGOS (bin/fuzz/ from
# make) and the line copies it back: fix the package, then commit the file there as its regression
# test.
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
hallazgos=${HALLAZGOS:-bin/fuzz}
objetivos=$("$GO" list -f '{{range .TestGoFiles}}{{$.ImportPath}}{{"\t"}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}{{range .XTestGoFiles}}{{$.ImportPath}}{{"\t"}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}' ./... |
  while IFS=$'\t' read -r paquete archivo; do
    sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)([A-Za-z0-9_]* *\*testing\.F) {$/\1/p' "$archivo" | sed "s|^|$paquete |"
  done)
# SOLO=regexp keeps only the targets whose name it matches (make fuzz SOLO=FuzzLeerURLComoNode).
if [ -n "${SOLO:-}" ]; then
  objetivos=$(printf '%s\n' "$objetivos" | awk -v re="${SOLO}" '$2 ~ re')
fi
total=$(printf '%s\n' "$objetivos" | grep -c . || true)
echo "fuzz: $total objetivos, $tiempo cada uno"
# hallazgo moves the input go test wrote (testdata/fuzz/FuzzX/HASH, relative to the package) out of
# the tree and prints the command that puts it back and runs it as the test it will become.
hallazgo() {
  local paquete=$1 objetivo=$2 salida=$3 rel dir destino
  rel=$(sed -n 's/.*Failing input written to \(testdata\/fuzz\/[^ ]*\).*/\1/p' <<<"$salida" | head -n 1)
  [ -n "$rel" ] || return 0
  dir=$("$GO" list -f '{{.Dir}}' "$paquete")
  destino="$hallazgos/${paquete//\//_}/$objetivo"
  mkdir -p "$destino"
  mv "$dir/$rel" "$destino/"
  rmdir "$dir/testdata/fuzz/$objetivo" "$dir/testdata/fuzz" "$dir/testdata" 2>/dev/null || true
  reproducir+=("mkdir -p ${dir#"$PWD"/}/testdata/fuzz/$objetivo && cp $destino/${rel##*/} ${dir#"$PWD"/}/testdata/fuzz/$objetivo/ && $GO test -run '^$objetivo/${rel##*/}\$' $paquete")
}
reproducir=()
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
    hallazgo "$paquete" "$objetivo" "$salida"
  fi
done <<<"$objetivos"
if [ "$fallos" -gt 0 ]; then
  echo "fuzz: $fallos objetivo(s) fallaron"
  for orden in ${reproducir[@]+"${reproducir[@]}"}; do
    echo "  para reproducirlo: $orden"
  done
  exit 1
fi
echo "fuzz: ningún fallo"
