"""Small Battle's table as each viewer may see it, and its stored events redacted (SB-1.3, SB-2.1, SB-2.3, SB-2.4).

Public: whose turn it is, the card drawn for the pending strike, the battle pile's size, each
formation's positions (removed or not), the values an Ace revealed, the published commitments.
Private: a formation's values (its owner sees them, SB-2.4; the referee sees both); the pile's order
(the referee). Once the game is over both formations are disclosed (SB-3.2).

Shape::

    {"phase": "arranging" | "striking" | "over", "to_act", "starter", "drawn", "pile_count",
     "battlefields": [{"seat", "arranged", "commitment", "positions": [{"position", "removed",
                       "revealed", "rank"?, "card"?}]}],
     "outcome", "pile"?, "formation"?, "legal_moves"?}

A seat's `legal_moves` summarise arranging as one entry ``{"type": "arrange", "ranks": ["2", .., "9"]}``
(any ordering of them, once) and list each strike.
"""

from __future__ import annotations

from domain.small_battle import format_card, formation_card, legal_moves
from domain.small_battle.state import State

from .kit import redactor, without
from .viewers import Viewer


def table(state: State, viewer: Viewer, disclose_all: bool = False) -> dict:
    """The table as `viewer` may see it; everything with `disclose_all` (projections.views passes it once the game is
    over, unless the end is withheld from this viewer)."""
    everything = viewer.is_referee or disclose_all
    phase = "over" if state.outcome is not None else ("striking" if state.arranged else "arranging")
    out = {
        "phase": phase, "to_act": state.to_act if state.arranged else None, "starter": state.starter,
        "drawn": None if state.drawn is None else format_card(state.drawn), "pile_count": len(state.pile),
        "battlefields": [_battlefield(state, seat, everything or viewer.is_seat(seat)) for seat in range(2)],
        "outcome": None if state.outcome is None else {"result": "win", "winner": state.outcome.winner_json()},
    }
    if everything:
        out["pile"] = [format_card(c) for c in state.pile]
    if viewer.role == "seat":
        f = state.formations[viewer.seat]
        out["formation"] = None if f is None else [str(r) for r in f]
        out["legal_moves"] = moves_of(state, viewer.seat)
    return out


def _battlefield(state: State, seat: int, open_: bool) -> dict:
    f = state.formations[seat]
    positions = []
    if f is not None:
        for p in range(8):
            entry = {"position": p, "removed": p in state.removed[seat], "revealed": p in state.revealed[seat]}
            if open_ or entry["revealed"]:
                entry["rank"] = str(f[p])
                entry["card"] = format_card(formation_card(seat, f[p]))
            positions.append(entry)
    return {"seat": seat, "arranged": f is not None, "commitment": list(state.commitments[seat] or []),
            "positions": positions}


def moves_of(state: State, seat: int) -> list[dict]:
    """A seat's legal moves: arranging summarised, strikes listed."""
    if state.outcome is not None:
        return []
    if not state.arranged:
        return [{"type": "arrange", "ranks": list("23456789")}] if state.formations[seat] is None else []
    if state.to_act != seat:
        return []
    return [{"type": "strike", "position": m["position"]} for m in legal_moves(state)]


def _started(data: dict, viewer: Viewer, n: int) -> dict:
    """SB-1.2, SB-1.4: the starter; the high-card pack and the pile's order are the referee's."""
    return {"starter": data["starter"], "pile_count": len(data["pile"])}


def _arranged(data: dict, viewer: Viewer, n: int) -> dict:
    """SB-1.3: the seat and its commitments; the formation only to its owner."""
    return dict(data) if viewer.is_seat(data["seat"]) else without(data, "formation")


def _struck(data: dict, viewer: Viewer, n: int) -> dict:
    """SB-2.2, SB-2.3: the named card's rank only to its owner, or to all when an Ace revealed it."""
    if data["result"] == "revealed" or viewer.is_seat(1 - data["seat"]):
        return dict(data)
    return without(data, "rank")


redact = redactor(("drew", "won", "said"), {"started": _started, "arranged": _arranged, "struck": _struck})


def describe(e: dict, names: list[str]) -> str | None:
    """A Small Battle event in words; None for the generic line."""
    kind = e["type"]
    who = names[e["seat"]] if "seat" in e else ""
    if kind == "started":
        return f"{names[e['starter']]} strikes first"
    if kind == "arranged":
        return f"{who} sets a formation (commitment {e['commitment'][0][:12]}…)"
    if kind == "drew":
        return f"{who} draws {e['card']}"
    if kind == "struck":
        what = {"removed": "removes it", "held": "it holds", "revealed": "the Ace reveals it"}[e["result"]]
        rank = f" ({e['rank']})" if "rank" in e else ""
        return f"{who} strikes position {e['position']}{rank} with {e['card']}: {what}"
    if kind == "won":
        return f"{who} wins: all eight removed"
    return None
