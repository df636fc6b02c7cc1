#!/usr/bin/env bash
# make estatico: the checks that read the code without running it. Each one is mostly a single
# process on a single core, so they all run at once and together fill the machine (on two cores,
# 10 s instead of 16); each one's name and, when it fails, its output come out in a fixed order.
# Exits 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
# golang.org/x/tools/cmd/deadcode at a fixed version, from the module cache first so that it also
# runs offline once fetched (the landing checks run in a network namespace), else from the proxy.
deadcode() {
  GOPROXY="file://$("$GO" env GOMODCACHE)/cache/download,$("$GO" env GOPROXY)" \
    "$GO" run golang.org/x/tools/cmd/deadcode@v0.52.0 "$@"
}
# sin_salida runs a check whose findings are its output: any output is a failure.
sin_salida() {
  local out
  out=$("$@" 2>&1) || { echo "$out"; return 1; }
  [ -z "$out" ] || { echo "$out"; return 1; }
}
gofmt_l() { gofmt -l $(git ls-files --cached --others --exclude-standard '*.go' 2>/dev/null || find . -name '*.go'); }
# The programs must not link test-only packages (test helpers belong in internal/prueba).
enlazan_pruebas() {
  "$GO" list -deps ./cmd/... ./scripts/... | grep -E '^(testing|net/http/httptest|cursohttp/internal/prueba)($|/)'
  return 0
}

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
nombres=()
correr() {
  local i=${#nombres[@]}
  nombres+=("$1")
  shift
  ("$@" >"$d/$i" 2>&1; echo $? >"$d/$i.rc") &
}
correr "gofmt -l" sin_salida gofmt_l
correr "go vet" "$GO" vet ./...
correr "go vet (windows)" env GOOS=windows "$GO" vet ./...
correr "go vet (darwin)" env GOOS=darwin "$GO" vet ./...
correr "go mod tidy -diff" "$GO" mod tidy -diff
# Dead code: what the programs cannot reach, and what not even the tests reach.
correr "deadcode (programas)" sin_salida deadcode -filter '^cursohttp/(cmd|pkg|scripts)/' ./...
correr "deadcode -test" sin_salida deadcode -test ./...
correr "programas sin paquetes de prueba" sin_salida enlazan_pruebas
wait

fallos=0
for i in "${!nombres[@]}"; do
  if [ "$(cat "$d/$i.rc")" = 0 ]; then
    printf '  ok     %s\n' "${nombres[$i]}"
  else
    printf '  FALLA  %s\n' "${nombres[$i]}"
    sed 's/^/         /' "$d/$i"
    fallos=$((fallos + 1))
  fi
done
[ "$fallos" = 0 ]
