#!/usr/bin/env python3
"""Compares ref.json and go.json produced by run.py. Usage: compare.py series.json ref.json go.json"""
import json, re, sys
from collections import Counter

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
BOOT = re.compile(r'(\d+-\d+-)[0-9a-f]{8}(\\?")')
MS = re.compile(r'"ms":\d+')


def norm_text(t):
    t = UUID.sub("UUID", t)
    t = BOOT.sub(r"\1BOOT\2", t)
    return t


def norm_body(b):
    return MS.sub('"ms":N', norm_text(b))


def norm_resp(r):
    if "headers" not in r:
        return r
    hs = []
    for n, v in r["headers"]:
        ln = n.lower()
        if ln in ("date", "keep-alive"):
            continue
        if ln == "connection" and v.lower() == "keep-alive":
            continue
        hs.append((n, norm_text(v)))
    out = {"status": r["status"], "headers": hs, "body": norm_body(r["body"]), "framing": r["framing"]}
    for k in ("interim", "end", "after", "send", "extra"):
        if k in r:
            out[k] = r[k]
    return out


def cmp_resp(a, b):
    """Returns list of difference strings (empty if equal)."""
    if "headers" not in a or "headers" not in b:
        if a != b:
            return [f"raw: ref={json.dumps(a, ensure_ascii=False)[:400]} go={json.dumps(b, ensure_ascii=False)[:400]}"]
        return []
    a, b = norm_resp(a), norm_resp(b)
    d = []
    if a["status"] != b["status"]:
        d.append(f"status: ref={a['status']!r} go={b['status']!r}")
    ha, hb = a["headers"], b["headers"]
    drop = ()
    if a["body"] == b["body"] and a["framing"] != b["framing"]:
        drop = ("content-length", "transfer-encoding")
    elif a["body"] == b["body"]:
        drop = ("content-length",)  # equal after normalising ms: the length follows the digits
    if drop:
        ha = [h for h in ha if h[0].lower() not in drop]
        hb = [h for h in hb if h[0].lower() not in drop]
    ca, cb = Counter(ha), Counter(hb)
    if ca != cb:
        only_a = ca - cb
        only_b = cb - ca
        kind = "headers"
        ra = [h for h in only_a if h[0].lower() == "retry-after"]
        rb = [h for h in only_b if h[0].lower() == "retry-after"]
        if ra and rb and len(only_a) == 1 and len(only_b) == 1 and abs(int(ra[0][1]) - int(rb[0][1])) <= 1:
            kind = "timing-retry-after"
        d.append(f"{kind}: ref-only={sorted(only_a)} go-only={sorted(only_b)}")
    if a["body"] != b["body"]:
        d.append(f"body: ref={a['body'][:600]!r} go={b['body'][:600]!r}")
    for k in ("interim", "end", "after", "send", "extra"):
        if a.get(k) != b.get(k):
            d.append(f"{k}: ref={a.get(k)!r} go={b.get(k)!r}")
    return d


def norm_log(t):
    lines = []
    skip_stack = False
    for l in t.splitlines():
        if l.startswith("    at "):
            continue
        l = norm_text(l)
        m = re.match(r"(error UUID en \S+ \S+: )", l)
        if m:
            l = m.group(1) + "<pila>"
        l = re.sub(r"\b\d+ ms\b", "N ms", l)
        lines.append(l)
    return lines


def conocida(raw):
    """Documented differences (docs/diferencias.md): request lines Node's parser and Go's read apart."""
    first = raw.split("\r\n")[0]
    parts = first.split(" ")
    if parts[0] == "CONNECT":
        return "connect"
    if len(parts) != 3:
        return "linea-malformada"
    if any(ord(c) >= 0x80 for c in parts[1]):
        return "objetivo-no-ascii"
    if any(ord(c) < 0x20 or ord(c) == 0x7f for c in parts[1]):
        return "objetivo-control"
    if re.search(r"%(?![0-9A-Fa-f]{2})", parts[1]):
        return "escape-invalido"
    return None


def main():
    series = {s["id"]: s for s in json.load(open(sys.argv[1]))}
    ref = json.load(open(sys.argv[2]))
    go = json.load(open(sys.argv[3]))
    nreq = 0
    known = {}
    known_lines = set()
    ndiff = 0
    for sid, s in series.items():
        if sid not in ref or sid not in go:
            print(f"== {sid}: missing side")
            continue
        rr, gr = ref[sid]["res"], go[sid]["res"]
        out = []
        for i, st in enumerate(s["steps"]):
            if "sleep" in st:
                continue
            subs = st["par"] if "par" in st else [st]
            ra = rr[i]["par"] if "par" in st else [rr[i]]
            ga = gr[i]["par"] if "par" in st else [gr[i]]
            for j, sub in enumerate(subs):
                nreq += 1
                d = cmp_resp(ra[j], ga[j])
                k = (sub.get("conocida") or conocida(sub["raw"])) if d else None
                if k:
                    known[k] = known.get(k, 0) + 1
                    p = sub["raw"].split("\r\n")[0].split(" ")
                    known_lines.add(p[0] + " " + (p[1] if len(p) > 1 else ""))
                    continue
                if d:
                    first = sub["raw"].split("\r\n")[0]
                    out.append(f"  [{i}.{j}] {first!r} {sub.get('nota', '')}\n    " + "\n    ".join(d))
        for prog in ("revisor", "laboratorio"):
            for stream in ("out", "err"):
                la = norm_log(ref[sid]["logs"][prog][stream])
                lb = norm_log(go[sid]["logs"][prog][stream])
                if known_lines:
                    # request lines of documented parser differences: one side logs a request the other refused
                    lb = [l for l in lb if not l.startswith("CONNECT ") and "\ufffd" not in l]
                    la = [l for l in la if "\ufffd" not in l]
                    for x, y in ((la, lb), (lb, la)):
                        for l in list((Counter(x) - Counter(y)).elements()):
                            if l in known_lines:
                                x.remove(l)
                if la != lb:
                    if sorted(la) == sorted(lb):
                        out.append(f"  log {prog}.{stream}: same lines, other order")
                    else:
                        ca, cb = Counter(la), Counter(lb)
                        out.append(f"  log {prog}.{stream}: ref-only={list((ca - cb).elements())[:8]} go-only={list((cb - ca).elements())[:8]}")
        if out:
            ndiff += 1
            print(f"== {sid} ({s.get('desc', '')})")
            print("\n".join(out))
    print(f"# known (documented) differences: {known}")
    print(f"# {len(series)} series, {nreq} requests, {ndiff} series with differences")


if __name__ == "__main__":
    main()
