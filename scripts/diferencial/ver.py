#!/usr/bin/env python3
"""ver.py NAME SERIES [from to]: show requests and both answers of one series."""
import json, os, sys
n, sid = sys.argv[1], sys.argv[2]
a = int(sys.argv[3]) if len(sys.argv) > 3 else 0
b = int(sys.argv[4]) if len(sys.argv) > 4 else 999
S = {x["id"]: x for x in json.load(open(f"{os.environ.get('DIF', '/tmp/dif')}/out/{n}.series.json"))}
R = json.load(open(f"{os.environ.get('DIF', '/tmp/dif')}/out/{n}.ref.json")); G = json.load(open(f"{os.environ.get('DIF', '/tmp/dif')}/out/{n}.go.json"))
def sh(r):
    if "par" in r: return " || ".join(sh(x) for x in r["par"])
    if "status" not in r: return json.dumps(r)[:150]
    h = {k: v for k, v in r["headers"] if k.lower() in ("etag", "location", "retry-after", "allow", "www-authenticate")}
    return f'{r["status"]} {h} {r["body"][:200]!r}'
for i, st in enumerate(S[sid]["steps"]):
    if not (a <= i <= b): continue
    if "sleep" in st: print(i, "sleep", st["sleep"]); continue
    subs = st["par"] if "par" in st else [st]
    for sub in subs:
        raw = sub["raw"]
        head, _, body = raw.partition("\r\n\r\n")
        lines = head.split("\r\n")
        print(i, repr(lines[0]), [l for l in lines[1:] if not l.startswith(("Host", "Content-Length"))], repr(body[:150]))
    print("   ref:", sh(R[sid]["res"][i]))
    print("   go :", sh(G[sid]["res"][i]))
