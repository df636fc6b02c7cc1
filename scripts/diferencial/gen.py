#!/usr/bin/env python3
"""Generates reproducible series of raw requests. Usage: gen.py SEED COUNT [family,...] > series.json"""
import json, random, sys

CREDS = ["admin", "escritura-a", "escritura-b", "lectura-a"]
H = "127.0.0.1:18080"
LAB = "http://127.0.0.1:18081"


def req(method, path, cred=None, headers=(), body=None, ctype="application/json", auth=None, host=H,
        chunked=False, cl=None, version="HTTP/1.1", **extra):
    lines = [f"{method} {path} {version}", f"Host: {host}"]
    if auth is not None:
        if isinstance(auth, list):
            lines += [f"Authorization: {a}" for a in auth]
        else:
            lines.append(f"Authorization: {auth}")
    elif cred is not None:
        lines.append(f"Authorization: Bearer {cred}")
    if body is not None and ctype is not None:
        lines.append(f"Content-Type: {ctype}")
    lines += list(headers)
    data = ""
    if body is not None:
        b = body.encode("utf-8") if isinstance(body, str) else body
        b = b.decode("latin-1")
        if chunked:
            lines.append("Transfer-Encoding: chunked")
            pieces = []
            i = 0
            while i < len(b):
                n = min(4000, len(b) - i)
                pieces.append(f"{n:x}\r\n{b[i:i + n]}\r\n")
                i += n
            data = "".join(pieces) + "0\r\n\r\n"
        else:
            lines.append(f"Content-Length: {len(b) if cl is None else cl}")
            data = b
    raw = "\r\n".join(lines) + "\r\n\r\n" + data
    st = {"raw": raw}
    st.update(extra)
    return st


def js(o):
    return json.dumps(o, ensure_ascii=False, separators=(",", ":"))


SEEDED = {1: "a", 2: "a", 3: "b", 4: "a", 5: "a", 6: "a"}

NOMBRES = [
    123, [], None, {}, True, "", " ", "   ", "\t\n", "\u00a0", "\u3000", "\ufeff", "\u200b", "\u0085", "\u180e",
    "\u2028", "\u2029", "\u1680", "\u2000\u200a", "\u202f", "\u205f", "\x0b\x0c", "a" * 40, "a" * 41, "\U0001F600" * 20,
    "\U0001F600" * 20 + "a", "a" * 39 + "\U0001F600", "ñ" * 40, "ñ" * 41, " catalogo", "catalogo", "catalogo ", "pagos",
    "nomina", "<b>&'\"</b>", "a\u2028b", "x\u0000y", "é", "e\u0301" * 20, "e\u0301" * 20 + "x", "\ud800" if False else "z",
]
URLS = [
    "http://127.0.0.1:18081/codigo/200", "https://127.0.0.1:18081/codigo/200", "ftp://127.0.0.1:18081/",
    "127.0.0.1:18081/codigo/200", "localhost:18081", "http://[::1]:18081/", "http://10.0.0.1/", "http://169.254.169.254/latest",
    "http://user:pw@127.0.0.1:18081/codigo/200", "http://x.invalid/", "http://0x7f.1:18081/codigo/200", "http://2130706433:18081/codigo/200",
    "http://127.1:18081/codigo/200", "HTTP://127.0.0.1:18081/codigo/200", "http://127.0.0.1:18081", "http://[::ffff:127.0.0.1]:18081/",
    "http://localhost:18081/codigo/200", "http://127.0.0.1:80/", "http://127.0.0.1:0/", "http://127.0.0.1:65536/",
    " http://127.0.0.1:18081/codigo/200 ", "http://127.0.0.1:18081/codigo/200\n", "http:\\\\127.0.0.1:18081\\codigo\\200",
    "http:/127.0.0.1:18081/codigo/200", "http://%31%32%37.0.0.1:18081/codigo/200", "https://[::1]/", "http://[fe80::1%25eth0]/",
    "", "http://", "http:", "http://.", "http://127.0.0.1:18081/lento/1500", "http://127.0.0.1:18081/cortar",
    "http://127.0.0.1:18081/basura", "http://8.8.8.8/", "http://[2001:4860:4860::8888]/", "http://[64:ff9b::a9fe:a9fe]/",
    "http://[::]/", "http://0.0.0.0:18081/", "http://100.64.0.1/", "http://192.168.1.1:8080/", "http://172.16.0.1/",
    "http://[2002:a9fe:a9fe::]/", "http://[::127.0.0.1]:18081/", "javascript:alert(1)", "data:text/plain,x", "http://a b/",
    "http://127.0.0.1:18081/codigo/200#frag", "http://127.0.0.1:18081/codigo/200?x=1", "http://127.0.0.1.:18081/codigo/200",
    "http://[::1]", "http://ümlaut.invalid/", "ws://127.0.0.1:18081/", "file:///etc/passwd", "mailto:x@y", "http://256.0.0.1/",
    "http://127.0.0.1:18081:80/", "http://@127.0.0.1:18081/codigo/200", "http://:@127.0.0.1:18081/codigo/200", 7, None, [],
    "http://127.0.0.1:018081/codigo/200", "http://0177.0.0.1:18081/codigo/200", "http://127.0.0.1:18081/%zz",
]
LIMITES = [100, 10000, 99, 10001, 2000, 2000.0, 2000.5, "2000", True, None, 1e3, -0.0, 0, -100, "x", [], {},
           1e400, 100.0000000000000001, 9999.9999999999999, 5e-324, 1.5e3, 1500]


def cuerpo_alta(r, nombre=None, url=None, limite="__no__"):
    o = {}
    o["nombre"] = nombre if nombre is not None else f"s{r.randrange(10**6)}"
    o["url"] = url if url is not None else "http://127.0.0.1:18081/codigo/200"
    if limite != "__no__":
        o["limite_ms"] = limite
    return o


def body_text(o):
    t = js(o)
    return t.replace("Infinity", "1e400")


RAW_BODIES = ["", "{", "nul", "{'a':1}", '{"a":1,}', "{} x", "\ufeff{}", "[]", '"x"', "1", "null", "true", "{}",
              '{"nombre":"a","nombre":"b","url":"http://127.0.0.1:18081/codigo/200"}',
              '{"__proto__":{"nombre":"x"},"url":"http://127.0.0.1:18081/codigo/200"}',
              '{"nomb\\u0072e":"esc","url":"http://127.0.0.1:18081/codigo/200"}',
              '{"nombre":"\\ud800","url":"http://127.0.0.1:18081/codigo/200"}',
              '{"nombre":"\\ud83d\\ude00","url":"http://127.0.0.1:18081/codigo/200"}',
              '{"nombre":"a","url":"http://127.0.0.1:18081/codigo/200","limite_ms":1E3}',
              '{"nombre":"a","url":"http://127.0.0.1:18081/codigo/200","limite_ms":-0}',
              '{"nombre":"a","url":"http://127.0.0.1:18081/codigo/200","limite_ms":01}',
              '{"nombre":"a","url":"http://127.0.0.1:18081/codigo/200","limite_ms":100.}',
              '{"nombre":"a","url":"http://127.0.0.1:18081/codigo/200","limite_ms":.5}',
              '{"nombre":"a","url":"http://127.0.0.1:18081/codigo/200","limite_ms":+100}',
              '{"nombre":"a","url":"http://127.0.0.1:18081/codigo/200","limite_ms":0x64}',
              '{"nombre":"a","url":"http://127.0.0.1:18081/codigo/200","limite_ms":NaN}',
              ' \t\r\n{"nombre":"ws","url":"http://127.0.0.1:18081/codigo/200"}\r\n ',
              '{"nombre":"a\tb","url":"http://127.0.0.1:18081/codigo/200"}',
              '{"nombre":"a\\/b","url":"http:\\/\\/127.0.0.1:18081\\/codigo\\/200"}',
              '{"nombre":"x"}\x00', '\x00', '{"nombre":"x\x7f","url":"http://127.0.0.1:18081/codigo/200"}',
              "[" * 3000 + "]" * 3000, '{"a":' * 2000 + "1" + "}" * 2000,
              b'{"nombre":"\xff\xfe","url":"http://127.0.0.1:18081/codigo/200"}',
              b'{"nombre":"\xc3","url":"http://127.0.0.1:18081/codigo/200"}',
              b'{"nombre":"\xed\xa0\x80","url":"http://127.0.0.1:18081/codigo/200"}',
              b'\xef\xbb\xbf{"nombre":"bom","url":"http://127.0.0.1:18081/codigo/200"}',
              '{"nombre":"1","url":"http://127.0.0.1:18081/codigo/200","1":2,"0":1,"b":0}',
              '{"activo":true}', '{"activo":"true"}', '{"activo":1}', '{"activo":false,"x":1}']
CTYPES = ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/json;", "application/jsonx",
          "text/plain", None, "", "application/json-patch+json", "application/problem+json", "Application/Json ; q=1",
          "application/json , text/plain", " application/json", "application/json\t;charset=x", "text/json",
          "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "*/*", ";application/json",
          "application/ json"]
AUTHS = [None, "Bearer admin", "bearer admin", "BEARER admin", "Bearer  admin", "Bearer\tadmin", "Bearer admin ",
         "Bearer", "Bearer ", "", " Bearer admin", "Basic YWRtaW46", "Bearer admin extra", "Bearer constructor",
         "Bearer toString", "Bearer __proto__", "Bearer ADMIN", ["Bearer admin", "Bearer lectura-a"],
         ["Bearer nadie", "Bearer admin"], "Bearer lectura-a", "Bearer escritura-b", "Bearer escritura-a",
         "Bearerr admin", "Bear admin", "Token admin", "Bearer admin,Bearer x", "Bearer\t admin", "Bearer  \tadmin",
         "Bearer admin\t", "Digest x", "Bearer YWRtaW4=", "Bearer \u00e1dmin"]
IDS = ["1", "2", "3", "4", "5", "6", "7", "8", "0", "007", "01", "99999999999999999999", "-1", "abc", "1.0", "%31", "1%20",
       "1a", "00000000000000000000001", "9007199254740993", "1e3", "+1", "0x1", "", "1" + "0" * 400]
PATHS = ["/servicios", "/servicios/1", "/servicios/1/revisiones", "/servicios/1/salud", "/servicios/1/informe",
         "/revisiones/1", "/mantenimiento", "/v1/servicios", "/v1/servicios/1", "/v0", "/v0/servicios", "/v0x", "/v00",
         "/", "/servicios/", "//servicios", "/servicios/./1", "/servicios/x/../1", "/./servicios", "/servicios/%31",
         "/%73ervicios", "/servicios?x=1", "/servicios#frag", "/servicios/1?y", "/SERVICIOS", "/servicios/1/",
         "/servicios//1", "/servicios/1/revisiones/", "/revisiones", "/revisiones/", "/v1", "/v1/", "/v1/servicios/",
         "/viejo/servicios", "/api/servicios", "/viejo", "/api", "/viejo/servicios/1?a=b", "/api/servicios/2/salud?x",
         "/servicios\\1", "/servicios/%2e%2e/servicios", "/servicios/1/%2E", "/a/../servicios", "/servicios/1/informe/..",
         "*", "http://revisor/servicios", "/servicios?", "/servicios/1?#", "/viejo/servicios?q=%20a b", "/api/servicios?<x>",
         "/viejoservicios", "/api/servicios/", "/viejo/servicios/x/../1", "/servicios/1;x", "/servicios/1%3Fx",
         "/mantenimiento/", "/v1/servicios/007", "/v1/servicios/3", "/servicios/3"]
METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "get", "FOO", "PROPFIND", "QUERY",
           "CONNECT", "Get", "SEARCH", "PURGE"]
INM = ['"{{ETAG}}"', "*", "W/{{ETAG}}", "{{ETAG}}", '"1-1-00000000"', "garbage", '"x", {{ETAG}}', "{{ETAG}}, *",
       'W/"1-1-{{BOOT}}"', '"1-1-{{BOOT}}"', '"1-2-{{BOOT}}"', " {{ETAG}} ", '"a,b", {{ETAG}}', ",,{{ETAG}},,", "",
       'w/{{ETAG}}', '"1-1-{{BOOT}}" "2"', "W/ {{ETAG}}", '"\u00e9"', "*, *", "{{ETAG}}\t", '"', '""']


class G:
    def __init__(self, r):
        self.r = r

    def pick(self, xs):
        return self.r.choice(xs)

    def cred(self):
        return self.pick(CREDS)

    def etag_of(self, sid):
        return "{{ETAG:%s}}" % sid

    # --- single-request builders ---
    def any_gate(self):
        m = self.pick(METHODS)
        p = self.pick(PATHS)
        a = self.pick(AUTHS)
        body = None
        if m in ("POST", "PUT", "PATCH") and self.r.random() < 0.7:
            body = body_text(cuerpo_alta(self.r))
        return req(m, p, auth=a if a is not None else None, body=body, ctype=self.pick(CTYPES) if body else None)

    def get_id(self):
        i = self.pick(IDS)
        sub = self.pick(["", "", "/informe", "/salud", "/revisiones"])
        m = "POST" if sub == "/revisiones" else self.pick(["GET", "GET", "HEAD", "DELETE"]) if sub == "" else "GET"
        return req(m, f"/servicios/{i}{sub}", cred=self.cred())

    def alta(self):
        k = self.r.random()
        if k < 0.3:
            o = cuerpo_alta(self.r, nombre=self.pick(NOMBRES))
        elif k < 0.6:
            o = cuerpo_alta(self.r, url=self.pick(URLS))
        elif k < 0.8:
            o = cuerpo_alta(self.r, limite=self.pick(LIMITES))
        else:
            o = cuerpo_alta(self.r, nombre=self.pick(NOMBRES), url=self.pick(URLS), limite=self.pick(LIMITES))
        if self.r.random() < 0.15:
            o["extra"] = self.pick([1, None, "x", {"a": 1}])
        body = body_text(o)
        if self.r.random() < 0.25:
            body = self.pick(RAW_BODIES)
        ct = "application/json" if self.r.random() < 0.8 else self.pick(CTYPES)
        return req("POST", "/servicios", cred=self.pick(CREDS + ["escritura-a", "escritura-a"]), body=body, ctype=ct,
                   timeout=10)

    def put(self, sid=None):
        sid = sid or self.pick(["1", "2", "3", "4", "7", "8"])
        c = self.pick(["admin", "escritura-a", "escritura-a", "escritura-b", "lectura-a"])
        hs = []
        k = self.r.random()
        if k < 0.6:
            v = self.pick(INM).replace("{{ETAG}}", self.etag_of(sid))
            hs.append(f"If-Match: {v}")
        elif k < 0.7:
            hs.append(f"If-Match: {self.etag_of(sid)}")
            hs.append(f"If-Match: {self.pick(INM).replace('{{ETAG}}', self.etag_of(sid))}")
        elif k < 0.85:
            hs.append(f"If-Match: {self.etag_of(sid)}")
        r2 = self.r.random()
        if r2 < 0.5:
            body = body_text(cuerpo_alta(self.r, nombre=self.pick(["catalogo", "pagos", "nuevo", "nomina", None]),
                                         url=self.pick(URLS[:20]), limite=self.pick(LIMITES[:8] + ["__no__"])))
        elif r2 < 0.8:
            body = body_text(cuerpo_alta(self.r))
        else:
            body = self.pick(RAW_BODIES)
        ct = "application/json" if self.r.random() < 0.8 else self.pick(CTYPES)
        if self.r.random() < 0.05:
            return req("PUT", f"/servicios/{sid}", cred=c, headers=hs)
        return req("PUT", f"/servicios/{sid}", cred=c, headers=hs, body=body, ctype=ct)

    def inm(self, sid=None):
        sid = sid or self.pick(["1", "2", "3", "4", "7"])
        hs = []
        if self.r.random() < 0.9:
            hs.append("If-None-Match: " + self.pick(INM).replace("{{ETAG}}", self.etag_of(sid)))
        if self.r.random() < 0.2:
            hs.append("If-None-Match: " + self.pick(INM).replace("{{ETAG}}", self.etag_of(sid)))
        return req(self.pick(["GET", "GET", "HEAD"]), f"/servicios/{sid}", cred=self.pick(CREDS), headers=hs)

    def get(self, sid):
        return req("GET", f"/servicios/{sid}", cred="admin")


# --- families: each returns (desc, steps, tail) ---

def fam_gate(g):
    steps = [g.any_gate() for _ in range(g.r.randint(15, 35))]
    return "gate", steps, 0.3


def fam_ids(g):
    steps = []
    for _ in range(g.r.randint(10, 25)):
        k = g.r.random()
        if k < 0.15:
            steps.append(req("DELETE", f"/servicios/{g.pick(['1','2','3','4','5','6','007','02'])}", cred=g.pick(["admin", "escritura-a", "escritura-b", "lectura-a"])))
        else:
            steps.append(g.get_id())
        if g.r.random() < 0.1:
            steps.append(req("GET", f"/revisiones/{g.pick(IDS)}", cred=g.cred()))
    return "ids", steps, 1.5


def fam_alta(g):
    steps = []
    for _ in range(g.r.randint(6, 14)):
        steps.append(g.alta())
        if g.r.random() < 0.2:
            steps.append(req("GET", "/servicios", cred=g.cred()))
    steps.append(req("GET", "/servicios", cred="admin"))
    steps.append(req("GET", "/v1/servicios", cred="admin"))
    return "alta", steps, 0.3


def fam_put(g):
    steps = []
    for _ in range(g.r.randint(8, 18)):
        k = g.r.random()
        sid = g.pick(["1", "2", "3", "4", "7"])
        if k < 0.3:
            steps.append(g.get(sid))
        elif k < 0.8:
            steps.append(g.put(sid))
        elif k < 0.9:
            steps.append(g.inm(sid))
        else:
            steps.append(req("DELETE", f"/servicios/{sid}", cred=g.pick(["admin", "escritura-a"])))
    steps.append(req("GET", "/servicios", cred="admin"))
    return "put", steps, 0.3


def fam_inm(g):
    steps = []
    for _ in range(g.r.randint(8, 16)):
        sid = g.pick(["1", "2", "3", "4"])
        if g.r.random() < 0.3:
            steps.append(g.get(sid))
        steps.append(g.inm(sid))
        if g.r.random() < 0.15:
            steps.append(req("PUT", f"/servicios/{sid}", cred="admin", headers=[f"If-Match: {g.etag_of(sid)}"],
                             body=body_text(cuerpo_alta(g.r))))
    return "inm", steps, 0.3


IDEM_KEYS = ["k1", "k1", "k2", "", " ", "llave con espacios", "ñandú", "k1 ", "a" * 300, "K1", "k1,k2", "\t"]


def fam_idem(g):
    steps = []
    bodies = [body_text(cuerpo_alta(g.r)) for _ in range(3)]
    bodies.append(bodies[0].replace('"nombre"', ' "nombre" '))
    bodies.append('{"url":%s,"nombre":%s}' % (json.dumps(json.loads(bodies[0])["url"]), json.dumps(json.loads(bodies[0])["nombre"])))
    bodies.append(body_text({"nombre": "", "url": "x"}))
    bodies.append(body_text(cuerpo_alta(g.r, url="http://10.0.0.1/")))
    bodies.append(body_text({"nombre": "catalogo", "url": "http://127.0.0.1:18081/codigo/200"}))
    for _ in range(g.r.randint(4, 10)):
        key = g.pick(IDEM_KEYS)
        cred = g.pick(["escritura-a", "escritura-a", "admin", "escritura-b"])
        hs = [f"Idempotency-Key: {key}"] if g.r.random() < 0.9 else [f"Idempotency-Key: {key}", f"Idempotency-Key: {g.pick(IDEM_KEYS)}"]
        body = g.pick(bodies)
        k = g.r.random()
        if k < 0.35:
            n = g.r.randint(2, 3)
            steps.append({"par": [req("POST", "/servicios", cred=cred, headers=hs, body=body, conn=None, timeout=10)
                                  for _ in range(n)], "stagger": 0.15})
        elif k < 0.45:
            steps.append(req("POST", "/servicios", cred=cred, headers=hs, body=g.pick(RAW_BODIES[:8])))
        else:
            steps.append(req("POST", "/servicios", cred=cred, headers=hs, body=body, timeout=10))
        if g.r.random() < 0.2:
            steps.append(req("DELETE", f"/servicios/{g.pick(['7','8','9'])}", cred="admin"))
    steps.append(req("GET", "/servicios", cred="admin"))
    return "idem", steps, 0.6


def fam_mant(g):
    steps = []
    bodies = ['{"activo":true}', '{"activo":false}', '{"activo":"true"}', '{"activo":1}', "{}", "[]", "x", '{"activo":null}']
    for _ in range(g.r.randint(8, 20)):
        k = g.r.random()
        if k < 0.35:
            ct = "application/json" if g.r.random() < 0.85 else g.pick(CTYPES)
            steps.append(req("PUT", g.pick(["/mantenimiento", "/mantenimiento", "/mantenimiento?x=1", "/mantenimiento/", "//mantenimiento", "/./mantenimiento"]),
                             cred=g.pick(["admin", "admin", "escritura-a", "lectura-a", None]),
                             body=g.pick(bodies[:2] * 3 + bodies), ctype=ct))
        elif k < 0.45:
            steps.append(req(g.pick(["GET", "POST", "DELETE", "HEAD", "OPTIONS"]), "/mantenimiento", cred="admin"))
        else:
            steps.append(g.any_gate())
    steps.append(req("PUT", "/mantenimiento", cred="admin", body='{"activo":false}'))
    steps.append(req("GET", "/servicios", cred="admin"))
    return "mant", steps, 0.3


def fam_redir(g):
    qs = ["", "?", "?a=1", "?a=1&b=2", "?q=%20a b", "?<x>'\"", "?a=ñ", "?#f", "#f", "?x=%zz", "?a=1#f?b", "?`{}|", "?\\"]
    bases = ["/viejo/servicios", "/api/servicios", "/viejo/servicios/", "/api/servicios/1", "/viejo/servicios/1/salud",
             "/viejo/servicios/%31", "/api/servicios/x/../2", "/viejo/./servicios", "/viejo/servicios/../../servicios",
             "/VIEJO/servicios", "/api/serviciosx", "/api/servicios//", "/viejo/servicios/ñ", "/api/servicios/a b",
             "/api/servicios/%e2%82%ac", "//api/servicios", "/api\\servicios\\1", "/viejo/servicios/..", "/api/servicios/."]
    steps = []
    for _ in range(g.r.randint(10, 25)):
        m = g.pick(["GET", "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"])
        body = '{"activo":true}' if m in ("PUT", "POST") and g.r.random() < 0.5 else None
        steps.append(req(m, g.pick(bases) + g.pick(qs), cred=g.pick(CREDS + [None]), body=body))
        if g.r.random() < 0.1:
            steps.append(req("PUT", "/mantenimiento", cred="admin", body=g.pick(['{"activo":true}', '{"activo":false}'])))
    return "redir", steps, 0.3


def fam_versiones(g):
    paths = ["/v0", "/v0/", "/v0/servicios", "/v0/servicios/1", "/v0?x", "/v0x", "/v1/servicios", "/v1/servicios/1",
             "/v1/servicios/3", "/v1/servicios/4", "/v1/servicios/99", "/v1/servicios/007", "/v1", "/v1/servicios/1/salud",
             "/V0", "/%76%30", "/v0%2fservicios", "/x/../v0", "/v1/servicios/8"]
    steps = []
    for _ in range(g.r.randint(8, 18)):
        if g.r.random() < 0.2:
            steps.append(g.alta())
        elif g.r.random() < 0.1:
            steps.append(req("PUT", "/servicios/4", cred="admin", headers=["If-Match: *"],
                             body=body_text(cuerpo_alta(g.r, limite=g.pick([100, 1500, 2500, 333, 10000, 1234])))))
        else:
            steps.append(req(g.pick(["GET", "GET", "HEAD", "POST", "DELETE"]), g.pick(paths), cred=g.pick(CREDS + [None])))
    return "versiones", steps, 0.3


SVC_URLS = ["/codigo/200", "/codigo/204", "/codigo/301", "/codigo/304", "/codigo/404", "/codigo/429", "/codigo/500",
            "/codigo/503", "/codigo/504", "/codigo/600", "/codigo/999", "/codigo/205", "/codigo/099", "/codigo/101",
            "/lento/50", "/lento/700", "/lento/1200", "/cortar", "/basura", "/codigo/302", "/codigo/401", "/nada",
            "/codigo/502", "/codigo/418", "/codigo/599", "/codigo/200?x=1", "/lento/99999", "/codigo/207"]


def fam_revisiones(g):
    steps = []
    created = []
    n_new = g.r.randint(0, 2)
    for i in range(n_new):
        u = g.pick(SVC_URLS)
        lim = g.pick([100, 500, 1000, 2000, 1300])
        steps.append(req("POST", "/servicios", cred="escritura-a",
                         body=js({"nombre": f"n{i}", "url": LAB + u, "limite_ms": lim}), timeout=10))
        created.append(str(7 + i))
    ids = ["1", "2", "3", "4", "5", "6"] + created
    asked = 0
    for _ in range(g.r.randint(3, 8)):
        k = g.r.random()
        if k < 0.4:
            sid = g.pick(ids + ["99", "007"])
            steps.append(req("POST", f"/servicios/{sid}/revisiones", cred=g.pick(["escritura-a", "admin", "escritura-b", "escritura-a"]),
                             body=g.pick([None, None, "{}"])))
            asked += 1
        elif k < 0.6:
            steps.append(req("GET", f"/revisiones/{g.r.randint(0, max(1, asked + 1))}", cred=g.pick(CREDS)))
        elif k < 0.75:
            steps.append(req("GET", f"/servicios/{g.pick(ids)}/informe", cred=g.pick(CREDS)))
        elif k < 0.85:
            steps.append({"sleep": g.pick([0.3, 2.5, 5.5])})
        else:
            steps.append(req("DELETE", f"/servicios/{g.pick(ids)}", cred=g.pick(["admin", "escritura-a"])))
    steps.append({"sleep": 6.0})
    for i in range(asked + 1):
        steps.append(req("GET", f"/revisiones/{i + 1}", cred="admin"))
    for sid in ids:
        steps.append(req("GET", f"/servicios/{sid}/informe", cred="admin"))
    return "revisiones", steps, 0.5


def fam_salud(g):
    steps = []
    created = []
    for i in range(g.r.randint(0, 3)):
        u = g.pick(SVC_URLS)
        lim = g.pick([100, 500, 1000, 2000])
        steps.append(req("POST", "/servicios", cred="escritura-a",
                         body=js({"nombre": f"h{i}", "url": LAB + u, "limite_ms": lim}), timeout=10))
        created.append(str(7 + i))
    ids = ["1", "2", "3", "4", "5", "6"] + created
    for _ in range(g.r.randint(3, 10)):
        sid = g.pick(ids + ["99"])
        steps.append(req(g.pick(["GET", "GET", "HEAD"]), f"/servicios/{sid}/salud", cred=g.pick(CREDS), timeout=12))
    return "salud", steps, 0.5


def fam_limite(g):
    steps = []
    for _ in range(g.r.randint(5, 9)):
        c = g.pick(["escritura-a", "escritura-b", "admin"])
        if g.r.random() < 0.7:
            steps.append(req("POST", f"/servicios/{g.pick(['1','2','3','99','x'])}/revisiones", cred=c))
        else:
            steps.append(req("GET", f"/servicios/{g.pick(['1','3','99'])}/salud", cred=c, timeout=12))
        if g.r.random() < 0.2:
            steps.append({"sleep": 1.2})
    steps.append({"sleep": 4.0})
    return "limite", steps, 0.5


def fam_rutas(g):
    steps = []
    for _ in range(g.r.randint(15, 30)):
        m = g.pick(["GET", "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"])
        p = g.pick(PATHS)
        steps.append(req(m, p, cred=g.pick(CREDS + [None])))
    return "rutas", steps, 0.3


def fam_grande(g):
    steps = []
    for _ in range(g.r.randint(2, 5)):
        n = g.pick([16384, 16385, 16383, 16000, 17000, 40000, 200000])
        base = '{"nombre":"grande","url":"http://127.0.0.1:18081/codigo/200","x":"'
        pad = n - len(base) - 2
        body = base + "a" * max(0, pad) + '"}'
        if g.r.random() < 0.3:
            body = " " * (n - 2) + "{}"
        chunked = g.r.random() < 0.4
        cl = None
        if not chunked and g.r.random() < 0.2:
            cl = g.pick([16385, 100000, 1 << 30])
            body = body[:min(len(body), 100)] if cl != 16385 else body
        path = g.pick(["/servicios", "/servicios/1", "/mantenimiento"])
        m = "POST" if path == "/servicios" else "PUT"
        hs = ["If-Match: *"] if path == "/servicios/1" else []
        c = "admin"
        st = req(m, path, cred=c, headers=hs, body=body, chunked=chunked, cl=cl, timeout=8, after_close=2.5)
        steps.append(st)
        if g.r.random() < 0.3:
            steps.append(req("GET", "/servicios", cred="admin"))
    return "grande", steps, 0.3


def fam_keepalive(g):
    steps = []
    for i in range(g.r.randint(5, 12)):
        st = g.pick([g.any_gate, g.get_id, g.inm])()
        if isinstance(st, dict) and "raw" in st:
            st["conn"] = "c1"
        steps.append(st)
    return "keepalive", steps, 0.3


def fam_lab(g):
    paths = ["/codigo/200", "/codigo/204", "/codigo/304", "/codigo/999", "/codigo/000", "/codigo/1000", "/codigo/20",
             "/lento/100", "/lento/0", "/lento/123456", "/nada", "/codigo/200?x=1", "/codigo/200#x", "/codigo/%32%30%30",
             "/codigo/205", "/codigo/101", "/codigo/301", "/codigo/599", "/codigo/600", "//codigo/200", "/codigo/200/"]
    steps = []
    for _ in range(g.r.randint(8, 16)):
        m = g.pick(["GET", "GET", "HEAD", "POST", "DELETE", "OPTIONS"])
        steps.append(req(m, g.pick(paths), host="127.0.0.1:18081", port=18081))
    return "lab", steps, 0.3


def fam_mix(g):
    builders = [g.any_gate, g.get_id, g.alta, g.put, g.inm, g.alta, g.put]
    steps = []
    for _ in range(g.r.randint(15, 30)):
        k = g.r.random()
        if k < 0.05:
            steps.append(req("PUT", "/mantenimiento", cred="admin", body=g.pick(['{"activo":true}', '{"activo":false}'])))
        elif k < 0.1:
            steps.append(req("POST", f"/servicios/{g.pick(['1','2','4','7'])}/revisiones", cred=g.pick(["escritura-a", "admin"])))
        elif k < 0.13:
            steps.append({"sleep": 2.0})
        else:
            steps.append(g.pick(builders)())
    steps.append({"sleep": 3.0})
    steps.append(req("GET", "/servicios", cred="admin"))
    return "mix", steps, 0.5


def fam_proto(g):
    """Protocol-level oddities: Expect, framing, versions, duplicate and folded headers."""
    ok = body_text(cuerpo_alta(g.r))
    cands = [
        lambda: req("POST", "/servicios", cred=g.cred(), body=ok, headers=["Expect: 100-continue"], parts=[(len(""), 0)]),
        lambda: req("POST", "/servicios", cred=None, body=ok, headers=["Expect: 100-continue"]),
        lambda: req("GET", "/servicios", cred=g.cred(), headers=["Expect: 100-continue"]),
        lambda: req("POST", "/servicios", cred="admin", body=ok, headers=["Expect: algo"]),
        lambda: req("GET", "/servicios/1", cred="admin", headers=["Expect: 100-Continue"]),
        lambda: req("POST", "/servicios", cred="admin", body=ok, headers=["Transfer-Encoding: chunked"], chunked=False),
        lambda: {"raw": "POST /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"},
        lambda: {"raw": "POST /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}"},
        lambda: {"raw": "POST /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x"},
        lambda: {"raw": "POST /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nContent-Type: application/json\r\nContent-Length: +2\r\n\r\n{}"},
        lambda: {"raw": "POST /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"},
        lambda: {"raw": "POST /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;ext=1\r\n{}\r\n0\r\nX-T: 1\r\n\r\n"},
        lambda: req("GET", "/servicios", cred="admin", version="HTTP/1.0"),
        lambda: req("GET", "/servicios/1", cred="admin", version="HTTP/1.0", headers=["Connection: keep-alive"]),
        lambda: req("GET", "/servicios", cred="admin", version="HTTP/2.0"),
        lambda: req("GET", "/servicios", cred="admin", version="HTTP/1.2"),
        lambda: req("GET", "/servicios", cred="admin", version="http/1.1"),
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nAuthorization: Bearer admin\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: a\r\nHost: b\r\nAuthorization: Bearer admin\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer\r\n admin\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: x\r\nauthorization: bearer admin\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization : Bearer admin\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization:Bearer admin\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\x0b\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\nHost: x\nAuthorization: Bearer admin\n\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nX: " + "a" * 17000 + "\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nX: " + "a" * 15000 + "\r\n\r\n"},
        lambda: {"raw": "GET /servicios/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nIf-None-Match: {{ETAG:1}}\r\nIf-None-Match: \"x\"\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\n\r\nGET /servicios/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\n\r\n"},
        lambda: {"raw": "GET  /servicios HTTP/1.1\r\nHost: x\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1 \r\nHost: x\r\n\r\n"},
        lambda: {"raw": "\r\nGET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nContent-Length: 0\r\n\r\n"},
        lambda: {"raw": "DELETE /servicios/2 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nContent-Length: 3\r\n\r\nabc"},
        lambda: {"raw": "HEAD /servicios/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nConnection: close\r\n\r\n", "after_close": 1},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nConnection: Upgrade\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n"},
        lambda: {"raw": "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"},
        lambda: {"raw": "GET http://otro:1/servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\n\r\n"},
        lambda: {"raw": "GET /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\n\r\n"},
        lambda: {"raw": "POST /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nContent-Type: text/plain\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"},
        lambda: {"raw": "POST /servicios HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer admin\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{}", "timeout": 3},
    ]
    steps = [g.get("1")]
    for _ in range(g.r.randint(6, 14)):
        st = g.pick(cands)()
        st["conocida"] = "protocolo"
        steps.append(st)
    steps.append(req("GET", "/servicios", cred="admin"))
    return "proto", steps, 0.3


SCHEMES = ["http", "https", "HTTP", "hTTpS", "ftp", "ws", "file", "data", "javascript", "x-custom", "htt", ""]
SEPS = ["://", "://", "://", ":/", ":", ":\\\\", ":///", ":\\/", "//"]
USERINFO = ["", "", "", "user@", "user:pw@", ":@", "@", "a%40b@", "us er@"]
HOSTS = ["127.0.0.1", "127.0.0.1", "127.1", "0x7f.0.0.1", "0177.0.0.1", "2130706433", "127.0.0.1.", "127.000.000.001",
         "0x7F000001", "127.0.0.256", "256.256.256.256", "1.2.3", "[::1]", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]",
         "[::ffff:7f00:1]", "[::127.0.0.1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]", "[fe80::1]", "[fc00::1]", "[::]",
         "[2001:db8::1]", "[2606:4700::1]", "[::1", "::1", "[:::1]", "[1::2::3]", "localhost", "LOCALHOST", "localhost.",
         "x.invalid", "X.INVALID", "%78.invalid", "a..b.invalid", "xn--nxasmq6b.invalid", "xn--a.invalid",
         "a_b.invalid", "a b", "", "10.0.0.1", "10.1", "192.168.0.1", "172.31.255.255", "172.32.0.1", "169.254.169.254",
         "100.64.0.1", "100.128.0.1", "0.0.0.0", "0", "224.0.0.1", "255.255.255.255", "198.18.0.1", "192.0.2.1",
         "8.8.8.8", "1.1.1.1", "[2001:4860:4860::8888]", "[64:ff9b::808:808]", "[2002:808:808::]", "[3fff::1]",
         "[5f00::1]", "[2001::1]", "[2001:20::1]", "[::ffff:10.0.0.1]", "[::ffff:8.8.8.8]", "0x100000000", "4294967295",
         "4294967296", "1.2.3.0x4", "09.1.1.1", "1.1.1.1.1", "[::1%25lo]", "exa<mple.invalid", "exa^mple.invalid",
         "ex%00ample.invalid", "ex%2fample.invalid", "ex%2Eample.invalid", "\u00fcber.invalid"]
PORTS = ["", "", ":18081", ":18081", ":", ":0", ":80", ":443", ":018081", ":65535", ":65536", ":-1", ":1a", ":+80",
         ": 80", ":18081:", ":99999999999999999999"]
RESTS = ["", "/", "/codigo/200", "?q=1", "#f", "/a/../b", "/%zz", "/ spaced", "\\x", "/\u00f1"]


def url_aleatoria(g):
    sch = "http" if g.r.random() < 0.5 else g.pick(SCHEMES)
    sep = "://" if g.r.random() < 0.6 else g.pick(SEPS)
    u = sch + sep + g.pick(USERINFO) + g.pick(HOSTS) + g.pick(PORTS) + g.pick(RESTS)
    k = g.r.random()
    if k < 0.05:
        u = " \t" + u
    elif k < 0.1:
        u = u + "\n "
    elif k < 0.13:
        u = u.replace("/", "/\t", 1)
    return u


def fam_urls(g):
    steps = []
    for i in range(g.r.randint(12, 25)):
        u = url_aleatoria(g)
        if g.r.random() < 0.8:
            steps.append(req("POST", "/servicios", cred=g.pick(["escritura-a", "admin"]), body=js({"nombre": f"u{i}", "url": u}), timeout=10, nota=u))
        else:
            steps.append(req("PUT", "/servicios/1", cred="admin", headers=["If-Match: *"], body=js({"nombre": "catalogo", "url": u}), timeout=10, nota=u))
    steps.append(req("GET", "/servicios", cred="admin"))
    return "urls", steps, 0.3


PROBES = SVC_URLS + ["/codigo/200#x", "/lento/1500?x", "/lento/abc", "/codigo/308", "/codigo/307", "/codigo/201",
                     "/codigo/226", "/codigo/103", "/codigo/100", "/codigo/300", "/codigo/399", "/codigo/451"]


def fam_sonda(g):
    steps = []
    n = g.r.randint(1, 3)
    for i in range(n):
        base = g.pick(["http://127.0.0.1:18081", "http://127.0.0.1:18081", "http://127.0.0.1:18081", "https://127.0.0.1:18081",
                       "http://127.1:18081", "http://[::ffff:127.0.0.1]:18081", "http://2130706433:18081"])
        steps.append(req("POST", "/servicios", cred="escritura-a",
                         body=js({"nombre": f"p{i}", "url": base + g.pick(PROBES), "limite_ms": g.pick([100, 300, 1000, 2000, 2000])}), timeout=10))
    ids = [str(7 + i) for i in range(n)]
    for sid in ids:
        steps.append(req("GET", f"/servicios/{sid}/salud", cred=g.pick(["admin", "escritura-a", "lectura-a"]), timeout=12))
        steps.append(req("POST", f"/servicios/{sid}/revisiones", cred=g.pick(["admin", "escritura-a"])))
    steps.append({"sleep": 6.5})
    for k in range(1, n + 1):
        steps.append(req("GET", f"/revisiones/{k}", cred="admin"))
    for sid in ids:
        steps.append(req("GET", f"/servicios/{sid}/informe", cred="admin"))
    return "sonda", steps, 0.5


def fam_chars(g):
    """Every byte in the path and in the query of a few routes (the parsers' character tables)."""
    steps = []
    bytes_ = list(range(0x21, 0x7f)) + [0x7f, 0x80, 0xa0, 0xff, 0x09, 0x0c, 0x00, 0x01]
    g.r.shuffle(bytes_)
    for b in bytes_[:g.r.randint(25, 45)]:
        c = chr(b)
        tmpl = g.pick(["/servicios/{c}", "/servicios{c}", "/servicios/1{c}", "/servicios?{c}", "/viejo/servicios/{c}?a{c}b",
                       "/api/servicios?x={c}", "/v0{c}", "/{c}", "/servicios/1/{c}/..", "/servicios#{c}"])
        steps.append(req(g.pick(["GET", "HEAD", "DELETE", "POST"]), tmpl.replace("{c}", c), cred=g.pick(CREDS + [None]),
                         nota="byte %02x" % b))
    return "chars", steps, 0.3


NODE_METHODS = ("ACL BIND CHECKOUT CONNECT COPY DELETE GET HEAD LINK LOCK M-SEARCH MERGE MKACTIVITY MKCALENDAR MKCOL MOVE "
                "NOTIFY OPTIONS PATCH POST PROPFIND PROPPATCH PURGE PUT QUERY REBIND REPORT SEARCH SOURCE SUBSCRIBE TRACE "
                "UNBIND UNLINK UNLOCK UNSUBSCRIBE PRI DESCRIBE ANNOUNCE SETUP PLAY PAUSE TEARDOWN GET_PARAMETER "
                "SET_PARAMETER REDIRECT RECORD FLUSH HTTP GETS GE POSTS X-GET MSEARCH").split()


def fam_metodos(g):
    steps = []
    for m in g.r.sample(NODE_METHODS, 14):
        if m == "CONNECT":
            continue
        m2 = g.pick([m, m, m.lower(), m.capitalize()])
        p = g.pick(["/servicios", "/servicios/1", "/mantenimiento", "/nada", "/viejo/servicios", "/v0", "*"])
        steps.append(req(m2, p, cred=g.pick(["admin", None])))
    return "metodos", steps, 0.3


def fam_carrera(g):
    """Requests at the same time on the same service: PUT and DELETE, two PUTs, POST with one name."""
    steps = [req("GET", "/servicios/1", cred="admin"), req("GET", "/servicios/4", cred="admin")]
    for _ in range(g.r.randint(2, 5)):
        sid = g.pick(["1", "4"])
        put = lambda n: req("PUT", f"/servicios/{sid}", cred="escritura-a", headers=[g.pick([f"If-Match: {{{{ETAG:{sid}}}}}", "If-Match: *"])],
                            body=js({"nombre": n, "url": "http://127.0.0.1:18081/codigo/" + g.pick(["200", "503"])}), timeout=10)
        k = g.r.random()
        if k < 0.3:
            par = [put("uno"), put("dos")]
        elif k < 0.5:
            par = [put("tres"), req("DELETE", f"/servicios/{sid}", cred="admin")]
        elif k < 0.8:
            nombre = g.pick(["igual", "catalogo", "otro"])
            par = [req("POST", "/servicios", cred=g.pick(["escritura-a", "admin"]), body=js({"nombre": nombre, "url": "http://127.0.0.1:18081/codigo/200"}), timeout=10)
                   for _ in range(g.r.randint(2, 3))]
        else:
            par = [put("cuatro"), req("POST", "/servicios", cred="escritura-a", body=js({"nombre": "cuatro", "url": "http://127.0.0.1:18081/codigo/200"}), timeout=10)]
        steps.append({"par": par, "stagger": g.pick([0.0, 0.05, 0.2])})
        steps.append(req("GET", f"/servicios/{sid}", cred="admin"))
    steps.append(req("GET", "/servicios", cred="admin"))
    return "carrera", steps, 0.5


FAMILIAS = {f.__name__[4:]: f for f in [fam_gate, fam_ids, fam_alta, fam_put, fam_inm, fam_idem, fam_mant, fam_redir,
                                         fam_versiones, fam_revisiones, fam_salud, fam_limite, fam_rutas, fam_grande,
                                         fam_keepalive, fam_lab, fam_mix, fam_proto, fam_urls, fam_sonda, fam_chars, fam_metodos, fam_carrera]}


def main():
    seed = int(sys.argv[1])
    count = int(sys.argv[2])
    fams = sys.argv[3].split(",") if len(sys.argv) > 3 else list(FAMILIAS)
    out = []
    for i in range(count):
        fam = fams[i % len(fams)]
        r = random.Random(f"{seed}-{i}-{fam}")
        desc, steps, tail = FAMILIAS[fam](G(r))
        out.append({"id": f"{seed}-{i:03d}-{fam}", "desc": desc, "steps": steps, "tail": tail})
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
