#!/usr/bin/env bash
# The grader's test client in shell with curl: registers NOMBRE URL through PASARELA_URL as Lesson 6
# asks, or, with --defecto, makes one mistake on purpose:
#   otra-credencial  sends «Bearer lectura-a», which may read but not write (the revisor answers 403)
#   sin-pasarela URL ignores PASARELA_URL and sends to URL (as a client with 18082 written in it)
#   colgado          leaves a child that detached with setsid and hangs, and hangs itself
#   hijo-suelto      leaves a child in the background and exits as a correct client
#   entorno FILE     writes its environment to FILE, then behaves as a correct client
defecto=""
if [ "$1" = "--defecto" ]; then defecto=$2; shift 2; fi
if [ "$defecto" = "entorno" ]; then env > "$1"; shift; fi
if [ "$defecto" = "sin-pasarela" ]; then fija=$1; shift; fi
nombre=$1 url=$2
base=${PASARELA_URL:-http://127.0.0.1:18082}
credencial="escritura-a"
case $defecto in
otra-credencial) credencial="lectura-a" ;;
sin-pasarela) base=$fija ;;
colgado) setsid sleep 1000 < /dev/null > /dev/null 2>&1 & sleep 1000 ;;
hijo-suelto) sleep 1000 < /dev/null > /dev/null 2>&1 & ;;
esac
llave=$(cat /proc/sys/kernel/random/uuid 2>/dev/null || uuidgen)
cuerpo=$(printf '{"nombre":"%s","url":"%s"}' "$nombre" "$url")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
techo=500
for intento in 1 2 3 4; do
	codigo=$(curl -s -o "$tmp/cuerpo" -D "$tmp/cabeceras" -w '%{http_code}' --max-time 2 \
		-H "Authorization: Bearer $credencial" -H 'Content-Type: application/json' \
		-H "Idempotency-Key: $llave" --data "$cuerpo" "$base/servicios")
	case $codigo in
	2??) exit 0 ;;
	000 | 502 | 503 | 504 | 408 | 429) ;;
	409) grep -q '/llave-en-curso"' "$tmp/cuerpo" || exit 1 ;;
	*) exit 1 ;;
	esac
	[ "$intento" = 4 ] && exit 1
	ra=$(tr -d '\r' < "$tmp/cabeceras" | awk -F': *' 'tolower($1)=="retry-after"{print $2}')
	if [ -n "$ra" ]; then
		[ "$ra" -gt 10 ] && exit 1
		sleep "$ra"
	else
		ms=$((RANDOM * 32768 + RANDOM))
		ms=$((ms % (techo + 1)))
		sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
		techo=$((techo * 2))
	fi
done
exit 1
