#!/usr/bin/env python3
"""A student's client for Lesson 6, written to the contract of `revisor comprobar cliente`:
register NOMBRE URL through the gateway once, whatever the network does.

--defecto MODO breaks it in one way on purpose, for the grader's own tests:
  ignora-retry-after  waits its own backoff whatever Retry-After says
  reintenta-422       takes a 422 for something that waiting fixes
  nunca-se-rinde      no bound on attempts
  una-llave           one Idempotency-Key for every registration the program ever makes
  sale-0              exits 0 whatever happened
"""
import http.client
import json
import os
import random
import sys
import time
import urllib.parse
import uuid

INTENTOS = 4
LIMITE_S = 5.0  # generous: on a loaded machine a first attempt may start slowly
TOPE_RETRY_AFTER = 5


def main(argv):
    defecto = ""
    if len(argv) >= 2 and argv[0] == "--defecto":
        defecto, argv = argv[1], argv[2:]
    nombre, url = argv
    pasarela = urllib.parse.urlsplit(os.environ.get("PASARELA_URL", "http://127.0.0.1:18082"))
    llave = "llave-del-programa" if defecto == "una-llave" else str(uuid.uuid4())
    cuerpo = json.dumps({"nombre": nombre, "url": url})
    n = 0
    while True:
        n += 1
        codigo, tipo, retry_after = intentar(pasarela, llave, cuerpo)
        print(f"intento {n}: {codigo or 'sin respuesta'} {tipo}", flush=True)
        if codigo and 200 <= codigo < 300:
            return 0
        if not reintentable(codigo, tipo, defecto):
            return salir(defecto)
        if n >= INTENTOS and defecto != "nunca-se-rinde":
            return salir(defecto)
        if retry_after is not None and defecto != "ignora-retry-after":
            if retry_after > TOPE_RETRY_AFTER:
                print(f"pide esperar {retry_after} s: me rindo")
                return salir(defecto)
            time.sleep(retry_after)
        else:
            time.sleep(random.uniform(0, min(2.0, 0.25 * 2 ** n)))


def salir(defecto):
    return 0 if defecto == "sale-0" else 1


def reintentable(codigo, tipo, defecto):
    if codigo is None:
        return True
    if codigo == 422 and defecto == "reintenta-422":
        return True
    if codigo == 409:
        return tipo.endswith("/llave-en-curso")
    return codigo in (408, 429, 502, 503, 504)


def intentar(pasarela, llave, cuerpo):
    conexion = http.client.HTTPConnection(pasarela.hostname, pasarela.port, timeout=LIMITE_S)
    try:
        conexion.request("POST", "/servicios", body=cuerpo, headers={
            "Authorization": "Bearer escritura-a",
            "Content-Type": "application/json",
            "Idempotency-Key": llave,
        })
        r = conexion.getresponse()
        datos = r.read()
        tipo = ""
        try:
            tipo = json.loads(datos).get("type", "")
        except (ValueError, AttributeError):
            pass
        retry_after = r.getheader("Retry-After")
        return r.status, tipo, int(retry_after) if retry_after and retry_after.isdigit() else None
    except (OSError, http.client.HTTPException):
        return None, "", None
    finally:
        conexion.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
