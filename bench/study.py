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
    tree(s, gid, top)


def _whole(o: dict) -> list[dict]:
    return [m for m in o["view"]["table"].get("legal_moves") or [] if set(m) <= {"type", "cards"}]


def tree(s, gid: str, top: int) -> None:
    """A study of many lines (issue 36 part 7): a seat's line played to the end against the bots, then a branch at
    each of its user nodes where another move is legal; a read replays (and words) every node of the tree."""
    o = s.open(None, StartStudy.from_body(gid, {"version": top // 3, "seat": 1, "seed": "tree"}))
    sid = o["id"]
    while not o["over"] and _whole(o) and len(o["nodes"]) < 2000:
        o = s.play(sid, None, _whole(o)[0], o["node"])
    users = [n["id"] for n in o["nodes"] if n["by"] == "user"]
    for u in users:
        at = s.read(sid, None, o["nodes"][u]["parent"])
        if len(_whole(at)) > 1:
            s.play(sid, None, _whole(at)[1], at["node"])
    o = s.read(sid, None)
    branches = sum(max(0, len(n["children"]) - 1) for n in o["nodes"])
    xs = []
    for _ in range(5):
        t0 = time.perf_counter(); s.read(sid, None); xs.append((time.perf_counter() - t0) * 1000)
    print(f"read of a tree of {len(o['nodes'])} nodes ({branches} branches): median {statistics.median(xs):.1f} ms, "
          f"max {max(xs):.1f} ms")


if __name__ == "__main__":
    main()
