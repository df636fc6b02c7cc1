#!/usr/bin/env python3
"""Runs series of raw HTTP requests against one side (ref or go) inside the current network
namespace, restarting the laboratory and the revisor before each series.
Usage: run.py SIDE series.json out.json   (inside `unshare -n`; campana.sh does it).
Environment: DIF (work folder, default /tmp/dif), DIFBIN (our binaries), DIFREF (the reference bundled
by campana.sh), DIFFIG (the reference's folder: fig07_01, or fig04_01 for Lesson 4), DIFLECCION (the
--leccion our servers get; none by default), REFTSX=1 to run the reference's .ts files through tsx
instead (slower start)."""
import json, os, re, signal, socket, subprocess, sys, threading, time

DIF = os.environ.get("DIF", "/tmp/dif")
REF = os.environ.get("REFCURSO", "/tmp/referencia-curso") + "/" + os.environ.get("DIFFIG", "fig07_01")
LECCION = os.environ.get("DIFLECCION", "")
BIN = os.environ.get("DIFBIN", DIF + "/bin")


def start(side, tag):
    procs = []
    logs = {}
    for prog in ("laboratorio", "revisor"):
        out = f"{DIF}/logs/{side}-{tag}-{prog}.out"
        err = f"{DIF}/logs/{side}-{tag}-{prog}.err"
        fo, fe = open(out, "wb"), open(err, "wb")
        if side == "ref" and os.environ.get("REFTSX"):
            script = "laboratorio.ts" if prog == "laboratorio" else "servidor.ts"
            cmd = ["../node_modules/.bin/tsx", script]
            cwd = REF
        elif side == "ref":
            # the same TypeScript, bundled once by the esbuild tsx uses: starts in 0.1 s instead of 1 s
            script = "laboratorio.mjs" if prog == "laboratorio" else "servidor.mjs"
            cmd = ["node", script]
            cwd = os.environ.get("DIFREF", DIF + "/refjs")
        else:
            cmd = [f"{BIN}/{prog}"] + (["--leccion", LECCION] if LECCION else [])
            cwd = DIF
        p = subprocess.Popen(cmd, cwd=cwd, stdout=fo, stderr=fe, start_new_session=True)
        procs.append(p)
        logs[prog] = (out, err)
        marca = b"laboratorio en" if prog == "laboratorio" else b"revisor en"
        t0 = time.time()
        while True:
            with open(out, "rb") as f:
                if marca in f.read():
                    break
            if time.time() - t0 > 20:
                raise RuntimeError(f"{side} {prog} did not start")
            time.sleep(0.02)
    return procs, logs


def stop(procs):
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for p in procs:
        p.wait()


def recv_until(s, buf, pred, deadline):
    while not pred(buf):
        s.settimeout(max(0.01, deadline - time.time()))
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            return buf, "timeout"
        except ConnectionResetError:
            return buf, "reset"
        except OSError as e:
            return buf, "error:" + str(e)
        if not chunk:
            return buf, "eof"
        buf += chunk
    return buf, None


def read_response(s, method, deadline):
    """Returns dict with interim, status, headers (list), body (bytes), framing, end."""
    buf = b""
    interim = []
    while True:
        buf, fin = recv_until(s, buf, lambda b: b"\r\n\r\n" in b, deadline)
        if fin is not None and b"\r\n\r\n" not in buf:
            return {"nada": fin, "crudo": buf.decode("latin-1")}, buf
        head, _, buf = buf.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = lines[0]
        headers = []
        for l in lines[1:]:
            n, _, v = l.partition(":")
            headers.append([n, v.strip()])
        m = re.match(r"HTTP/\d\.\d (\d{3})", status)
        code = int(m.group(1)) if m else 0
        if 100 <= code < 200 and code != 101:
            interim.append(status)
            continue
        break
    hl = {n.lower(): v for n, v in headers}
    framing = "none"
    body = b""
    end = None
    if method == "HEAD" or code in (204, 304) or 100 <= code < 200:
        framing = "none"
    elif "chunked" in hl.get("transfer-encoding", "").lower():
        framing = "chunked"
        while True:
            buf, fin = recv_until(s, buf, lambda b: b"\r\n" in b, deadline)
            if b"\r\n" not in buf:
                end = fin
                break
            szl, _, rest = buf.partition(b"\r\n")
            try:
                sz = int(szl.split(b";")[0], 16)
            except ValueError:
                end = "badchunk"
                break
            buf, fin = recv_until(s, rest, lambda b: len(b) >= sz + 2, deadline)
            if len(buf) < sz + 2:
                body += buf[:sz]
                end = fin
                break
            body += buf[:sz]
            buf = buf[sz + 2:]
            if sz == 0:
                break
    elif "content-length" in hl:
        framing = "length"
        n = int(hl["content-length"])
        buf, fin = recv_until(s, buf, lambda b: len(b) >= n, deadline)
        body, buf = buf[:n], buf[n:]
        if len(body) < n:
            end = fin
    else:
        framing = "close"
        buf, fin = recv_until(s, buf, lambda b: False, deadline)
        body, buf = buf, b""
        end = fin
    r = {"status": status, "headers": headers, "body": body.decode("latin-1"), "framing": framing}
    if interim:
        r["interim"] = interim
    if end:
        r["end"] = end
    return r, buf


def method_of(raw):
    return raw.split(b" ", 1)[0].decode("latin-1")


class Runner:
    def __init__(self):
        self.conns = {}
        self.boot = None
        self.etags = {}

    def subst(self, raw):
        def rep(m):
            key = m.group(1)
            if key == "BOOT":
                return self.boot or "00000000"
            if key.startswith("ETAG:"):
                return self.etags.get(key[5:], '"0-0-00000000"')
            return m.group(0)
        return re.sub(r"\{\{([A-Z]+(?::[0-9]+)?)\}\}", rep, raw)

    def learn(self, r):
        for n, v in r.get("headers", []):
            if n.lower() == "etag":
                m = re.match(r'"(\d+)-(\d+)-([0-9a-f]{8})"', v)
                if m:
                    self.boot = m.group(3)
                    self.etags[m.group(1)] = v

    def do_req(self, st):
        raw = self.subst(st["raw"]).encode("latin-1")
        timeout = st.get("timeout", 8)
        name = st.get("conn")
        s = self.conns.get(name) if name else None
        reused = s is not None
        if s is None:
            s = socket.create_connection(("127.0.0.1", st.get("port", 18080)))
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        err = []
        parts = st.get("parts")
        def send():
            try:
                if parts:
                    # raw is split into pieces sent with pauses (slow clients, Expect)
                    pos = 0
                    for ln, pause in parts:
                        s.sendall(raw[pos:pos + ln]); pos += ln
                        time.sleep(pause)
                    s.sendall(raw[pos:])
                else:
                    s.sendall(raw)
            except OSError as e:
                err.append(type(e).__name__)
        th = threading.Thread(target=send)
        th.start()
        deadline = time.time() + timeout
        r, rest = read_response(s, method_of(raw), deadline)
        th.join(5)
        if err:
            r["send"] = err[0]
        if st.get("after_close"):
            # does the server close the connection after this answer?
            extra, fin = recv_until(s, rest, lambda b: False, time.time() + st["after_close"])
            r["after"] = fin
            if extra:
                r["extra"] = extra.decode("latin-1")[:300]
        if name and st.get("keep", True) and "nada" not in r and not st.get("after_close"):
            self.conns[name] = s
        else:
            s.close()
            if name:
                self.conns.pop(name, None)
        self.learn(r)
        return r

    def run_series(self, serie):
        res = []
        for st in serie["steps"]:
            if "sleep" in st:
                time.sleep(st["sleep"])
                res.append({"sleep": st["sleep"]})
            elif "par" in st:
                out = [None] * len(st["par"])
                def one(i, sub):
                    try:
                        out[i] = self.do_req(sub)
                    except Exception as e:
                        out[i] = {"exc": repr(e)}
                ths = [threading.Thread(target=one, args=(i, sub)) for i, sub in enumerate(st["par"])]
                for i, t in enumerate(ths):
                    t.start()
                    time.sleep(st.get("stagger", 0.0))
                for t in ths:
                    t.join()
                res.append({"par": out})
            else:
                try:
                    res.append(self.do_req(st))
                except Exception as e:
                    res.append({"exc": repr(e)})
        for s in self.conns.values():
            s.close()
        return res


def main():
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))
    side, sfile, ofile = sys.argv[1:4]
    os.makedirs(DIF + "/logs", exist_ok=True)
    series = json.load(open(sfile))
    results = {}
    for serie in series:
        tag = serie["id"]
        procs, logs = start(side, tag)
        try:
            res = Runner().run_series(serie)
            time.sleep(serie.get("tail", 0.3))
        finally:
            stop(procs)
        lg = {}
        for prog, (o, e) in logs.items():
            lg[prog] = {"out": open(o, "rb").read().decode("utf-8", "replace"),
                        "err": open(e, "rb").read().decode("utf-8", "replace")}
        results[tag] = {"res": res, "logs": lg}
        sys.stderr.write(f"{side} {tag} done\n")
    json.dump(results, open(ofile, "w"), ensure_ascii=False, indent=0)


if __name__ == "__main__":
    main()
