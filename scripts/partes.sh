#!/usr/bin/env bash
# make test's parts, one after another: each is a make target (with its variables), announced when
# it starts and timed when it ends, so a long run shows where it is. The first that fails stops the
# run, and the last lines name it and the parts that never ran; the line of what was skipped
# (scripts/saltos) comes last either way.
#
#	scripts/partes.sh 'estatico' 'unit' 'escenas CURSOHTTP_RAPIDO=1' …
set -uo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
GO=${GO:-go}
partes=("$@")
fallo=""
inicio=$SECONDS
for i in "${!partes[@]}"; do
  parte=${partes[$i]}
  echo "== make test: $parte"
  t=$SECONDS
  # $parte is a target and its variables, split on spaces on purpose.
  # shellcheck disable=SC2086
  if $MAKE --no-print-directory $parte; then
    echo "== make test: $parte, bien ($((SECONDS - t)) s)"
  else
    echo "== make test: $parte, FALLÓ ($((SECONDS - t)) s)"
    fallo=$parte
    restantes=("${partes[@]:$((i + 1))}")
    break
  fi
done
if [ -n "$fallo" ]; then
  echo "make test falló en «$fallo» tras $((SECONDS - inicio)) s"
  if [ "${#restantes[@]}" -gt 0 ]; then
    printf -v lista '«%s», ' "${restantes[@]}"
    echo "make test no llegó a correr: ${lista%, }"
  fi
else
  echo "make test: todo bien en $((SECONDS - inicio)) s"
fi
"$GO" run ./scripts/saltos resumen
[ -z "$fallo" ]
