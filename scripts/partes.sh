#!/usr/bin/env bash
# make test's parts: each is a make target (with its variables), announced when it starts and timed
# when it ends, so a long run shows where it is. «--» splits the parts into lanes: a lane's parts
# run one after another, the lanes at the same time (the machine has two cores and most parts
# mostly wait: on timers, servers, child processes). With more than one lane every line a part
# writes starts with its name. When a part fails no lane starts another one (those running end,
# with their time), and the last lines name the parts that failed and those that never ran; the
# line of what was skipped (scripts/saltos) comes last either way.
#
#	scripts/partes.sh 'estatico' 'unit' -- 'escenas CURSOHTTP_RAPIDO=1' …
set -uo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
GO=${GO:-go}

# The parts in the order given, and the lanes as lists of their indexes.
partes=()
carriles=("")
for a in "$@"; do
  if [ "$a" = "--" ]; then
    carriles+=("")
  else
    carriles[${#carriles[@]}-1]+=" ${#partes[@]}"
    partes+=("$a")
  fi
done
varios=$(( ${#carriles[@]} > 1 ))

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
trap 'kill $(jobs -p) 2>/dev/null; exit 130' INT TERM
inicio=$SECONDS

# correr runs one part; its result goes to $d/<index> («bien» or «falló»).
correr() {
  local i=$1 parte=${partes[$1]} t=$SECONDS r
  echo "== make test: $parte"
  # $parte is a target and its variables, split on spaces on purpose.
  # shellcheck disable=SC2086
  if [ "$varios" = 1 ]; then
    # bash's read takes a pipe a byte at a time, so each line goes out as it comes (awk may
    # buffer its input).
    $MAKE --no-print-directory $parte 2>&1 | while IFS= read -r l || [ -n "$l" ]; do printf '%s | %s\n' "$parte" "$l"; done
  else
    $MAKE --no-print-directory $parte
  fi
  r=$?
  if [ "$r" -eq 0 ]; then
    echo "== make test: $parte, bien ($((SECONDS - t)) s)"
    echo bien >"$d/$i"
  else
    echo "== make test: $parte, FALLÓ ($((SECONDS - t)) s)"
    echo falló >"$d/$i"
    touch "$d/alto"
  fi
}

for carril in "${carriles[@]}"; do
  (
    for i in $carril; do
      [ ! -e "$d/alto" ] || exit 0
      correr "$i"
    done
  ) &
done
wait

fallaron=() restantes=()
for i in "${!partes[@]}"; do
  case "$(cat "$d/$i" 2>/dev/null)" in
  falló) fallaron+=("${partes[$i]}") ;;
  bien) ;;
  *) restantes+=("${partes[$i]}") ;;
  esac
done
if [ "${#fallaron[@]}" -gt 0 ]; then
  printf -v lista '«%s», ' "${fallaron[@]}"
  echo "make test falló en ${lista%, } tras $((SECONDS - inicio)) s"
  if [ "${#restantes[@]}" -gt 0 ]; then
    printf -v lista '«%s», ' "${restantes[@]}"
    echo "make test no llegó a correr: ${lista%, }"
  fi
else
  echo "make test: todo bien en $((SECONDS - inicio)) s"
fi
"$GO" run ./scripts/saltos resumen
[ "${#fallaron[@]}" -eq 0 ]
