"""What the referee's desk shows beside a game's catalogue row: the tournament table it is played at (name, round,
table), who is to act and how much time they have left.

- The tournament: from the tournaments' standings documents (service.adapters.standings_store: a game's `g:<id>`
  row names its tournament, whose document lists the round and table of each of its games), two reads for a page.
- Who is to act and their time: `ViewsFacade.at_a_glance` (what the tournament page shows of a table, which names
  no card: a delayed game's as its spectators see it) and projections.time_left at the server's time now.

Only what anyone may see already (the tournament page shows the same), so the desk still needs no token.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from projections.time_left import time_left

from service.adapters.standings_store import Standings
from service.errors import ServiceError
from service.store.application import Store
from service.store.server_clock import server_ms

from .facade import ViewsFacade


class DeskRows:
    """The desk's additions to catalogue rows, for one store."""

    def __init__(self, app: Store, views: ViewsFacade):
        self.app = app
        self.views = views
        self._standings: Standings | None = None

    def _caught_up(self) -> Standings:
        if self._standings is None:
            self._standings = Standings.for_app(self.app)
        self._standings.catch_up()
        return self._standings

    def placements(self, game_ids: Sequence[str]) -> dict[str, dict]:
        """The tournament table of each game that a tournament started: {game id: {"id", "name", "round", "table",
        "game"}} (`table` and `game` counted from 1, as the tournament page numbers them); other games left out."""
        view = self._caught_up().view
        links = view.get_many([f"g:{gid}" for gid in game_ids])
        docs = view.get_many(sorted({f"t:{link['tournament']}" for link in links.values()}))
        out = {}
        for key, link in links.items():
            doc, gid = docs.get(f"t:{link['tournament']}"), key[2:]
            mine = next((g for g in doc["games"] if g["game_id"] == gid), None) if doc else None
            if mine is not None:
                out[gid] = {"id": doc["id"], "name": doc["settings"].get("name") or "tournament", "round": mine["round"],
                            "table": mine["table"] + 1, "game": mine["index"] + 1}
        return out

    def to_act(self, row: dict, now_ms: int) -> dict:
        """Who is to act in a game in progress and their time left: {"seats": [{"seat", "name", "left_ms", "limit"}],
        "waiting": bool (the clocks wait for the first move)}; {"unreadable": True, ...} for a damaged game."""
        try:
            glance = self.views.at_a_glance(row["id"])
        except ServiceError:  # a game whose stored events cannot be read (its audit says where): the desk still lists it
            return {"seats": [], "waiting": False, "unreadable": True}
        clock = glance.get("clock") or {}
        left = {x["seat"]: x for x in time_left(clock, now_ms)}
        names = [p.get("name") for p in row["players"]]
        seats = [{"seat": s, "name": names[s] if s < len(names) else f"seat {s}",
                  "left_ms": (left.get(s) or {}).get("left_ms"), "limit": (left.get(s) or {}).get("limit")}
                 for s in glance.get("to_act") or ()]
        return {"seats": seats, "waiting": bool(clock.get("waiting"))}

    def add_to(self, rows: list[dict]) -> list[dict]:
        """The rows with `tournament` (or None) and, for a game in progress, `acting` (`to_act`'s answer)."""
        placed = self.placements([r["id"] for r in rows])
        now = server_ms()
        out = []
        for row in rows:
            extra: dict[str, Any] = {"tournament": placed.get(row["id"])}
            if row["status"] == "in_progress":
                extra["acting"] = self.to_act(row, now)
            out.append({**row, **extra})
        return out
