#!/usr/bin/env bash
# Starts and stops the lab's servers for `make lab-up`, `lab-down`, `lab` and `lab-tmux`.
# lab-up keeps each server's pid and log in lab/, so lab-down stops only what it started.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
DIR=${LAB_DIR:-lab}

puerto() {
  case "$1" in laboratorio) echo 18081 ;; revisor) echo 18080 ;; pasarela) echo 18082 ;; esac
}

responde() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

vivo() { # pid still ours: running and the program we started
  local pid=$1 prog=$2
  kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "$BIN/$prog"
}

arriba() {
  mkdir -p "$DIR"
  local fallo=0
  for prog in "$@"; do
    [ -x "$BIN/$prog" ] || continue
    if [ -f "$DIR/$prog.pid" ] && vivo "$(cat "$DIR/$prog.pid")" "$prog"; then
      echo "$prog ya corre (pid $(cat "$DIR/$prog.pid")); make lab-down lo detiene"
      continue
    fi
    nohup "$BIN/$prog" >"$DIR/$prog.log" 2>&1 </dev/null &
    echo $! >"$DIR/$prog.pid"
    local p; p=$(puerto "$prog")
    for _ in $(seq 1 100); do
      responde "$p" && break
      vivo "$!" "$prog" || break
      sleep 0.05
    done
    if responde "$p" && vivo "$!" "$prog"; then
      head -n 1 "$DIR/$prog.log"
    else
      echo "$prog no arrancó:"; sed 's/^/  /' "$DIR/$prog.log"
      rm -f "$DIR/$prog.pid"; fallo=1
    fi
  done
  echo "bitácoras en $DIR/ (tail -f $DIR/*.log); make lab-down detiene todo"
  return $fallo
}

abajo() {
  shopt -s nullglob
  local algo=0
  for f in "$DIR"/*.pid; do
    local prog pid; prog=$(basename "$f" .pid); pid=$(cat "$f")
    if vivo "$pid" "$prog"; then
      kill -TERM "$pid"
      for _ in $(seq 1 100); do vivo "$pid" "$prog" || break; sleep 0.1; done
      vivo "$pid" "$prog" && kill -KILL "$pid"
      echo "$prog detenido (pid $pid)"; algo=1
    fi
    rm -f "$f"
  done
  [ $algo = 1 ] || echo "no había nada de make lab-up corriendo"
}

primer_plano() {
  local pids=()
  trap 'kill -TERM "${pids[@]}" 2>/dev/null; wait; exit 0' INT TERM
  for prog in "$@"; do
    [ -x "$BIN/$prog" ] || continue
    "$BIN/$prog" 2>&1 | sed -u "s/^/$(printf '%-12s' "$prog") | /" &
    pids+=($!)
    sleep 0.2
  done
  wait
}

en_tmux() {
  command -v tmux >/dev/null || { echo "tmux no está instalado (apt-get install tmux); usa make lab"; exit 1; }
  local sesion=lab primero=1
  tmux kill-session -t "$sesion" 2>/dev/null
  for prog in "$@"; do
    [ -x "$BIN/$prog" ] || continue
    if [ $primero = 1 ]; then tmux new-session -d -s "$sesion" -n lab "$BIN/$prog"; primero=0
    else tmux split-window -t "$sesion" "$BIN/$prog"; sleep 0.2; fi
  done
  tmux select-layout -t "$sesion" even-vertical
  if [ -t 1 ]; then tmux attach -t "$sesion"; else echo "sesión tmux «$sesion» creada: tmux attach -t $sesion"; fi
}

orden=${1:-}; shift || true
case "$orden" in
  arriba) arriba "$@" ;;
  abajo) abajo ;;
  primer-plano) primer_plano "$@" ;;
  tmux) en_tmux "$@" ;;
  *) echo "uso: scripts/lab.sh arriba|abajo|primer-plano|tmux [programas]"; exit 2 ;;
esac
