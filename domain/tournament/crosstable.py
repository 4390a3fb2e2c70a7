"""The crosstable: every player against every other, one mark a game they played against each other.

A mark is the row player's result in that game: "1" a win, "½" a draw, "0" a loss, "·" a game still being played.
Partners (players of one team in a team game) are not opponents, so they get no mark. Rows follow the order given
(the standings' order, so the table reads from the top); byes are counted per player.
"""

from __future__ import annotations

from typing import Sequence

from .standings import result_of

MARKS = {"won": "1", "drawn": "½", "lost": "0"}
PLAYING = "·"


def _partners(players: Sequence[dict], a: int, b: int) -> bool:
    team = players[a].get("team")
    return team is not None and team == players[b].get("team")


def crosstable(players: Sequence[dict], games: Sequence[dict], byes: Sequence[tuple[int, int]] = (),
               order: Sequence[int] | None = None) -> list[dict]:
    """Rows {player, name, cells, byes}: `cells[k]` lists the marks of the row player against the k-th player of
    `order` (None on the diagonal). `games` are {round, players (player index per seat), status, result, winner}."""
    order = list(range(len(players))) if order is None else list(order)
    column = {p: k for k, p in enumerate(order)}
    cells: dict[int, list[list[str] | None]] = {p: [None if q == p else [] for q in order] for p in order}
    for g in sorted(games, key=lambda g: (g.get("round", 0), g.get("index", 0))):
        seats = list(g["players"])
        over = g.get("status") == "finished"
        for seat, p in enumerate(seats):
            if p not in cells:
                continue
            mark = MARKS[result_of(g, seat)] if over else PLAYING
            for q in seats:
                if q != p and q in column and not _partners(players, p, q):
                    cells[p][column[q]].append(mark)
    bye_count = {p: sum(1 for _, b in byes if b == p) for p in order}
    return [{"player": p, "name": players[p]["name"], "cells": cells[p], "byes": bye_count[p]} for p in order]
