#!/usr/bin/env bash
# make estatico: the checks that read the code without running it. Each one is mostly a single
# process on a single core, so they all run at once and together fill the machine (on two cores,
# 10 s instead of 16). Each prints its name, its time and, when it fails, its output as soon as it
# ends (on a cold cache a check can take many minutes: the run must not look stuck); the last line
# counts them and names those that failed. Exits 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
# -trimpath: the compiles go vet and deadcode ask for then record no directory, so every clone
# shares them in the build cache (make check's tests compile the same way).
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath"
# deadcode is a tool of go.mod (go get -tool): the version is pinned there, and the README's
# `go mod download` fetches it with everything else, so nothing downloads during a check.
deadcode() { "$GO" tool deadcode "$@"; }
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
# What each program never links of the others' code (issues 23, 33 and 41), docs/estructura.md's
# table «What each program links»: the revisor stands a gateway and a bench up in-process
# (pkg/montaje) but links no panel nor lab controller; laboratorio runs the class lab as another
# process; the gateway needs nothing of the others; a client links no server code.
nunca_enlazan() {
  local p patron
  while read -r p patron; do
    "$GO" list -deps "./cmd/$p" | grep -E "^cursohttp/pkg/($patron)\$" | sed "s|^|$p enlaza |"
  done <<'FIN'
revisor panel|control|paginas
laboratorio revisor|pasarela|montaje|examen|clase|almacen|datos|datosclase|sonda|idempotencia|altasegura|agentemcp|ordenes(/.*)?
pasarela revisor|laboratorio|panel|control|hostil|montaje|examen|clase|sonda|almacen|datos|idempotencia|altasegura|agentemcp|ordenes(/.*)?
alta-segura servidor|revisor|pasarela|laboratorio|panel|lab|control|montaje|examen|clase
FIN
  return 0
}
# No package name is used twice (issue 33): a reader who meets «servidor.» or «openapi.» knows which
# one it is without looking at the imports. Commands (main) and test packages aside.
nombres_repetidos() {
  "$GO" list -f '{{if ne .Name "main"}}{{.Name}} {{.ImportPath}}{{end}}' ./... | sort | awk '
    NF == 0 { next }
    $1 == prev { if (!shown) print "el nombre «" $1 "» lo llevan " prevpath " y " $2; else print "el nombre «" $1 "» lo lleva también " $2; shown = 1; next }
    { prev = $1; prevpath = $2; shown = 0 }'
}
# Only the revisor keeps data: the other programs link neither SQLite nor PostgreSQL's driver (they
# were most of laboratorio's 27 MB when «lab vaciar» erased the data itself).
sin_bases() {
  local p
  for p in laboratorio pasarela alta-segura; do
    "$GO" list -deps "./cmd/$p" | grep -E '^(modernc\.org/sqlite|github\.com/jackc/pgx)(/|$)' | sed "s|^|$p enlaza |"
  done
  return 0
}
# Tests wait for events, not time (issue 23): at most 10 time.Sleep in _test.go files, each with a
# comment on the line above saying why time itself is under test (prueba.Esperar, a channel, a log
# line or testing/synctest do the rest).
esperas_en_pruebas() {
  local archivos
  archivos=$(git ls-files --cached --others --exclude-standard '*_test.go' 2>/dev/null || find . -name '*_test.go')
  [ -n "$archivos" ] || return 0
  awk -v tope=10 '
    FNR == 1 { antes = "" }
    $0 ~ /time\.Sleep\(/ && $0 !~ /^[ \t]*\/\// {
      n++
      if (antes !~ /^[ \t]*\/\//) printf "%s:%d: time.Sleep sin un comentario en la línea de arriba que diga por qué el tiempo está a prueba\n", FILENAME, FNR
    }
    { antes = $0 }
    END { if (n > tope) printf "%d time.Sleep en las pruebas, el tope es %d: que esperen el evento (prueba.Esperar, un canal, una línea de la bitácora) o usen testing/synctest\n", n, tope }
  ' $archivos
}

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
nombres=()
# correr starts a check in the background; when it ends, its whole report goes out in one write, so
# the reports of checks ending together do not mix.
correr() {
  local i=${#nombres[@]} nombre=$1
  nombres+=("$1")
  shift
  (
    t=$SECONDS
    if "$@" >"$d/$i" 2>&1; then
      printf '  ok     %s (%d s)\n' "$nombre" $((SECONDS - t))
    else
      touch "$d/$i.falla"
      printf '  FALLA  %s (%d s)\n%s\n' "$nombre" $((SECONDS - t)) "$(sed 's/^/         /' "$d/$i")"
    fi
  ) &
}
echo "estatico: las comprobaciones corren a la vez; cada una sale al terminar"
correr "gofmt -l" sin_salida gofmt_l
correr "go vet" "$GO" vet ./...
correr "go vet (windows)" env GOOS=windows "$GO" vet ./...
correr "go vet (darwin)" env GOOS=darwin "$GO" vet ./...
correr "go mod tidy -diff" "$GO" mod tidy -diff
# Dead code: what the programs cannot reach, and what not even the tests reach.
correr "deadcode (programas)" sin_salida deadcode -filter '^cursohttp/(cmd|pkg|scripts)/' ./...
correr "deadcode -test" sin_salida deadcode -test ./...
correr "programas sin paquetes de prueba" sin_salida enlazan_pruebas
correr "laboratorio, pasarela y alta-segura sin SQLite ni pgx" sin_salida sin_bases
correr "cada programa sin el código que no debe enlazar (docs/estructura.md)" sin_salida nunca_enlazan
correr "ningún nombre de paquete repetido" sin_salida nombres_repetidos
correr "pruebas que esperan eventos (10 time.Sleep como mucho, comentados)" sin_salida esperas_en_pruebas
wait

fallaron=()
for i in "${!nombres[@]}"; do
  [ ! -e "$d/$i.falla" ] || fallaron+=("${nombres[$i]}")
done
if [ "${#fallaron[@]}" -eq 0 ]; then
  echo "estatico: las ${#nombres[@]} comprobaciones bien"
  exit 0
fi
printf -v lista '«%s», ' "${fallaron[@]}"
echo "estatico: ${#fallaron[@]} de ${#nombres[@]} fallaron: ${lista%, }"
exit 1
