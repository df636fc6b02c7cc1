#!/usr/bin/env bash
# The grader against an earlier version of itself: the same clients, with the same seeds, graded
# by `revisor comprobar cliente` built at REF and at the working tree; each report (--json) is
# compared byte for byte. The report depends on the seed and what the client decides, not on the
# clock or its keys, so a client that decides the same gets the same bytes; clients whose own
# decisions depend on timing (a flood, a fixed wait under load, one stopped at its limit) differ
# from one run to the next with either version, and then both versions' counts are shown.
#
#	scripts/diferencial/calificador.sh 6d05f74
#
# Needs Go, python3, node and bash; not part of CI (a few minutes).
set -uo pipefail
ref=${1:?uso: calificador.sh REF}
raiz=$(cd "$(dirname "$0")/../.." && pwd)
d=$(mktemp -d)
trap 'git -C "$raiz" worktree remove --force "$d/viejo" >/dev/null 2>&1; rm -rf "$d"' EXIT
git -C "$raiz" worktree add -q --detach "$d/viejo" "$ref"
(cd "$d/viejo" && go build -o "$d/viejo-revisor" ./cmd/revisor) || exit 1
(cd "$raiz" && go build -o "$d/bin/" ./cmd/revisor ./cmd/alta-segura && go build -o "$d/bin/cliente-go" ./pkg/examen/testdata/cliente.go) || exit 1
export PATH="$d/bin:$PATH"
t="$raiz/pkg/examen/testdata"
combos=(
  "1|alta-segura" "2|alta-segura" "3|alta-segura --defecto llave-por-intento" "4|alta-segura --sin-llave"
  "5|python3 $t/cliente.py" "6|python3 $t/cliente.py --defecto ignora-retry-after" "7|python3 $t/cliente.py --defecto reintenta-422"
  "8|python3 $t/cliente.py --defecto nunca-se-rinde" "9|python3 $t/cliente.py --defecto una-llave" "10|python3 $t/cliente.py --defecto sale-0"
  "11|node $t/cliente.mjs" "12|node $t/cliente.mjs --defecto espera-fija"
  "13|cliente-go" "14|cliente-go --defecto inunda" "15|cliente-go --defecto sin-espera" "16|cliente-go --defecto directo"
  "17|cliente-go --defecto llave-del-cuerpo" "18|cliente-go --defecto reintenta-409" "19|cliente-go --defecto reintenta-403"
  "20|bash $t/cliente.sh" "21|bash $t/cliente.sh --defecto otra-credencial"
)
iguales=0
for c in "${combos[@]}"; do
  s=${c%%|*} orden=${c#*|}
  # shellcheck disable=SC2086 # the command's words
  "$d/viejo-revisor" comprobar cliente --puertos-libres --semilla "$s" --json -- $orden >"$d/viejo-$s.json" 2>/dev/null &
  # shellcheck disable=SC2086
  "$d/bin/revisor" comprobar cliente --puertos-libres --semilla "$s" --json -- $orden >"$d/nuevo-$s.json" 2>/dev/null
  wait
  if cmp -s "$d/viejo-$s.json" "$d/nuevo-$s.json"; then r=igual; iguales=$((iguales + 1)); else r=distinto; fi
  echo "$r  $(jq -c '[.pasaron,.juzgadas]' "$d/viejo-$s.json") $(jq -c '[.pasaron,.juzgadas]' "$d/nuevo-$s.json")  semilla $s: $orden"
done
echo "calificador: $iguales de ${#combos[@]} informes iguales byte a byte a los de $ref"
