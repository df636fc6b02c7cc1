#!/bin/sh
# campana.sh NOMBRE SEMILLA CUANTAS [familia,...]
# Sends the same seeded series of raw requests to the course's reference and to our revisor and
# laboratory, each side in its own network namespace on the course's ports, and compares them.
# LECCION=4 compares Lesson 4's programs (fig04_01 against ours with --leccion 4); the default is
# the final ones (fig07_01 against ours without the flag).
# Needs root (unshare -n), python3 and node; results in $DIF/out/NOMBRE.{series,ref,go}.json and .diff.
set -e
aqui=$(cd "$(dirname "$0")" && pwd)
raiz=$(cd "$aqui/../.." && pwd)
export DIF=${DIF:-/tmp/dif}
n=$1; seed=$2; count=$3; fams=$4
[ -n "$count" ] || { echo "uso: campana.sh NOMBRE SEMILLA CUANTAS [familia,...]" >&2; exit 2; }
mkdir -p "$DIF/out" "$DIF/logs"
# The reference, bundled once by the esbuild tsx uses (it starts in 0.1 s instead of 1 s).
ref=$(/work/shared/referencia/preparar.sh 2>/dev/null | head -1)
case "${LECCION:-7}" in
  4) fig=fig04_01 ;;
  6|7) fig=fig07_01 ;;
  *) echo "LECCION es 4, 6 o 7" >&2; exit 2 ;;
esac
export REFCURSO=$ref DIFFIG=$fig DIFREF=$DIF/refjs-$fig DIFLECCION=${LECCION:-}
if [ ! -f "$DIFREF/servidor.mjs" ]; then
  mkdir -p "$DIFREF"
  for f in servidor laboratorio; do
    (cd "$ref/$fig" && ../node_modules/.bin/esbuild $f.ts --bundle --platform=node --format=esm \
      --outfile="$DIFREF/$f.mjs" --log-level=warning)
  done
fi
# Our side: a snapshot of the binaries for this campaign.
export DIFBIN=$DIF/bin-$n
(cd "$raiz" && go build -o "$DIFBIN/" ./cmd/laboratorio ./cmd/revisor)
python3 "$aqui/gen.py" "$seed" "$count" $fams > "$DIF/out/$n.series.json"
unshare -n sh -c "ip link set lo up && python3 '$aqui/run.py' ref '$DIF/out/$n.series.json' '$DIF/out/$n.ref.json'" 2> "$DIF/out/$n.ref.log" &
a=$!
unshare -n sh -c "ip link set lo up && python3 '$aqui/run.py' go '$DIF/out/$n.series.json' '$DIF/out/$n.go.json'" 2> "$DIF/out/$n.go.log" &
b=$!
wait $a; wait $b
python3 "$aqui/compare.py" "$DIF/out/$n.series.json" "$DIF/out/$n.ref.json" "$DIF/out/$n.go.json" > "$DIF/out/$n.diff"
tail -2 "$DIF/out/$n.diff"
