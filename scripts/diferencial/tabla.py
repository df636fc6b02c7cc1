#!/usr/bin/env python3
"""tabla.py NAME: one line per distinct raw request that differs: ref vs go summary."""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import cmp_resp
n = sys.argv[1]
D = os.environ.get("DIF", "/tmp/dif") + "/out/"
S = json.load(open(f"{D}{n}.series.json")); R = json.load(open(f"{D}{n}.ref.json")); G = json.load(open(f"{D}{n}.go.json"))
seen = {}
def short(r):
    if "status" not in r: return json.dumps(r)[:120]
    hs = {h[0] for h in r["headers"]}
    return f'{r["status"]} cl={dict((k.lower(),v) for k,v in r["headers"]).get("content-length")} {"conn-close " if ["Connection","close"] in r["headers"] else ""}{r.get("interim","")} {r.get("end","")} body={r["body"][:90]!r}'
for s in S:
    sid = s["id"]
    for i, st in enumerate(s["steps"]):
        if "raw" not in st: continue
        d = cmp_resp(R[sid]["res"][i], G[sid]["res"][i])
        if not d: continue
        key = st["raw"][:400]
        if key in seen: continue
        seen[key] = 1
        print(repr(st["raw"][:250]))
        print("   ref:", short(R[sid]["res"][i]))
        print("   go :", short(G[sid]["res"][i]))
