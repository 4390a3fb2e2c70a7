"""High Card's table as each viewer may see it, and its stored events redacted (HC-1.2: a hand is its seat's).

Shape: {"phase": "play" | "over", "to_act", "round", "rounds", "trick", "scores", "seats": [{"seat", "won",
"hand_size", "hand"?}], "hand"?, "legal_moves"?}.
"""

from __future__ import annotations

from domain.cards import format_card
from projections.viewers import Viewer

from .decider import State, hand_of, legal_moves


def table(state: State, viewer: Viewer, disclose_all: bool = False) -> dict:
    """The table as `viewer` may see it; every hand to the referee, and to everybody once over (or disclose_all)."""
    everything = viewer.is_referee or disclose_all or state.outcome is not None
    seats = []
    for seat, hand in enumerate(state.hands):
        entry = {"seat": seat, "won": state.won[seat], "hand_size": len(hand)}
        if everything or viewer.is_seat(seat):
            entry["hand"] = [format_card(c) for c in sorted(hand)]
        seats.append(entry)
    out = {"phase": "over" if state.outcome is not None else "play", "to_act": state.to_act,
           "round": min(state.played + 1, state.setup.rounds), "rounds": state.setup.rounds,
           "trick": [format_card(c) for c in state.trick], "scores": list(state.won), "seats": seats}
    if viewer.role == "seat":
        out["hand"] = [format_card(c) for c in sorted(state.hands[viewer.seat])]
        out["legal_moves"] = [{"type": "play", "cards": [format_card(c) for c in m["cards"]]}
                              for m in legal_moves(state) if m["seat"] == viewer.seat]
    return out


def redact(kind: str, data: dict, viewer: Viewer, n: int) -> dict:
    """A stored event's data as `viewer` may see it before the end: the deal shows a seat its own hand only."""
    if viewer.is_referee or kind != "dealt":
        return dict(data)
    out = {"rounds": data["rounds"]}
    if viewer.role == "seat":
        out["hand"] = hand_of(data["order"], data["rounds"], viewer.seat)
    return out


def describe(e: dict, names: list[str]) -> str | None:
    """An event in words; None for the generic line."""
    if e["type"] == "played":
        return f"{names[e['seat']]} plays {e['cards'][0]}"
    if e["type"] == "round_ended":
        return f"round {e['round']}: " + ("a tie" if e["winner"] is None else f"{names[e['winner']]} wins it")
    return None
