"""Study latency (docs/studies.md): open, read, and read after a variation, on the longest of 40 El Royale classic
games played by the heuristic bots, in process on a memory store. `python -m bench.study`."""

from __future__ import annotations

import statistics
import time
import uuid

from service.offline.simulation import make_plan, run
from service.facade import Arbiter
from service.play.new_games import ImportRecord
from service.studies.commands import StartStudy


def main() -> None:
    docs = list(run(make_plan("el-royale", 4, 40, ("heuristic",), {"edition": "classic"}, "bench"), 1))
    doc = max(docs, key=lambda d: len(d["moves"]))
    a = Arbiter("memory://")
    r = a.play.import_record(ImportRecord.from_body(doc))
    gid = r["id"]; top = a.app.game(uuid.UUID(gid)).version
    print("moves", len(doc["moves"]), "versions", top)
    s = a.studies
    def t(f, n=5):
        xs=[]
        for _ in range(n):
            t0=time.perf_counter(); out=f(); xs.append((time.perf_counter()-t0)*1000)
        return out, statistics.median(xs), max(xs)
    out, med, mx = t(lambda: s.open(None, StartStudy.from_body(gid, {"version": top - 5, "seat": 1, "seed": "b"})))
    print(f"open at version {top-5}: median {med:.1f} ms, max {mx:.1f} ms")
    sid = out["id"]
    _, med, mx = t(lambda: s.read(sid, None), 10)
    print(f"read: median {med:.1f} ms, max {mx:.1f} ms")
    out, med, mx = t(lambda: s.open(None, StartStudy.from_body(gid, {"version": top // 2, "seat": 1, "seed": "b2", "every_seat": True})))
    sid = out["id"]
    for i in range(20):
        o = s.read(sid, None)
        if o["over"]: break
        m = next((m for m in o["view"]["table"]["legal_moves"] if set(m) <= {"type","cards"}), None)
        if m is None: break
        s.play(sid, None, m)
    _, med, mx = t(lambda: s.read(sid, None), 10)
    print(f"read after {len(o['positions'])-1} moves (every seat): median {med:.1f} ms, max {mx:.1f} ms")


if __name__ == "__main__":
    main()
