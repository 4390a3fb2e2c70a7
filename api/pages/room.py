"""The room at a glance (the tournament page's first section): this round's games with what a director looks for
first (who is to act, each seat's clock as it stands now, open disputes, reopened games), their counts and the
filters over them (playing, finished, with disputes). Pure: a tournament view and the server's time in."""

from __future__ import annotations

from datetime import datetime
from typing import Any

FILTERS = {"all": "all", "playing": "playing", "finished": "finished", "disputes": "with disputes", "reopened": "reopened"}


def room_of(view: dict, now_ms: int) -> dict | None:
    """This round's rows and counts; None before the first round."""
    if not view.get("rounds"):
        return None
    current = view["rounds"][-1]
    earlier = [{"round": r, "rows": rows_of(r, now_ms)} for r in reversed(view["rounds"][:-1])]
    # a game of an earlier round reopened by a ruling is this room's business until it ends again
    rows = rows_of(current, now_ms) + [dict(row, earlier=e["round"]["number"]) for e in earlier for row in e["rows"]
                                       if row["game"].get("reopened") and row["game"]["status"] != "finished"]
    counts = {key: sum(1 for r in rows if key in r["kinds"]) for key in FILTERS}
    counts["all"] = len(rows)
    return {"round": current, "rows": rows, "counts": counts,
            "earlier": earlier,
            "open_disputes": sum(r["game"].get("open_disputes") or 0 for r in rows),
            "reopened": sum(1 for r in rows if r["game"].get("reopened") and r["game"]["status"] != "finished")}


def rows_of(round_: dict, now_ms: int) -> list[dict]:
    """A round's games, one row each: its table, the game, the filters it passes, its clocks now."""
    return [{"table": table, "game": game, "kinds": kinds_of(game), "clocks": clocks_now(game.get("clock"), now_ms)}
            for table in round_["tables"] for game in table["games"]]


def kinds_of(game: dict) -> set[str]:
    """The filters a game passes: playing or finished, with disputes (open ones), reopened, and always all."""
    kinds = {"all", "finished" if game["status"] == "finished" else "playing"}
    if game.get("reopened"):
        kinds.add("reopened")
    if game.get("open_disputes"):
        kinds.add("disputes")
    return kinds


def clocks_now(clock: dict | None, now_ms: int) -> list[dict]:
    """Each seat's clock as it stands at `now_ms`: the time used (a running seat's turn so far included), the game
    time left where the time control has one, running or not, flagged or not (projections/clocks.py's fields)."""
    if not clock or not clock.get("seats"):
        return []
    control = clock.get("time_control") or {}
    game_ms = control["game_seconds"] * 1000 if control.get("game_seconds") else None
    out = []
    for seat in clock["seats"]:
        running = bool(seat.get("running")) and seat.get("since") is not None
        used = seat["used_ms"] + (max(0, now_ms - _ms(seat["since"])) if running else 0)
        out.append({"seat": seat["seat"], "used_ms": used, "base_ms": seat["used_ms"], "since": seat.get("since"),
                    "running": running, "game_ms": game_ms, "left_ms": None if game_ms is None else game_ms - used,
                    "move_ms": seat.get("move_limit_ms"), "flags": seat.get("flags") or []})
    return out


def mmss(ms: int | None) -> str:
    """Milliseconds as m:ss (none below zero)."""
    s = max(0, int(ms or 0) // 1000)
    return f"{s // 60}:{s % 60:02d}"


def _ms(iso: Any) -> int:
    return int(datetime.fromisoformat(str(iso)).timestamp() * 1000)
