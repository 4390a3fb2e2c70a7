"""Batallion's table as each viewer may see it: a pure function of a State (BA-2.1, BA-3.2, BA-4.6; contract §3).

Public to all: every seat's chips and hand size, chips out of play, the stock's size, the
discard pile face up (bottom first), the attack on the table while the defender decides,
the phase, dealer, seat to act, the bids and passes made (a refused over-bid is not part of
the game, BA-3.2), the previous attack's suit, the `blind` target, the outcome. Private: a
hand (its own seat only) and the stock's order (the referee only). Once the game is over
everything is disclosed. The stored events' redaction is projections.batallion.events.

Shape (cards are strings)::

    {"variants", "phase", "dealer", "to_act", "chips_start", "chips_out", "stock_count",
     "discard", "battle": {"attacker", "target", "cards", "value"} | None,
     "bids": [{"seat", "amount"}],     # in order; amount null: a pass
     "high_bid", "high_bidder", "previous_suit", "blind_target", "first_attack", "minimum",
     "seats": [{"seat", "chips", "hand_size", "hand"?}], "scores": [chips per seat],
     "outcome": {"result", "winner", "scores"} | None,
     "stock"?,                         # the referee (or everyone once over): draw order, top first
     "hand"?, "legal_moves"?}          # a seat viewer: its own hand and, when to act, its moves

`legal_moves` lists `domain.batallion.legal_moves` without `seat`, cards as strings; in
the bidding the bids are one entry ``{"type": "bid", "min": a, "max": b}`` (any amount
from a to b) beside ``{"type": "pass"}``.
"""

from __future__ import annotations

from domain.batallion import clauses, format_card, legal_moves
from domain.batallion.state import BIDDING, State

from .events import redact  # noqa: F401  (the plug-in's event redaction)
from ..kit import with_hands
from ..viewers import Viewer

SUITS = "CDHS"


def _cards(cards) -> list[str]:
    return [format_card(c) for c in cards]


def table(state: State, viewer: Viewer, disclose_all: bool = False) -> dict:
    """The table as `viewer` may see it; the referee's table with `disclose_all` (projections.views passes it once
    the game is over, unless the end is withheld from this viewer)."""
    return with_hands(public_table(state), viewer, viewer.is_referee or disclose_all,
                      lambda seat: _cards(state.hands[seat]), lambda seat: moves_of(state, seat),
                      lambda: {"stock": _cards(state.stock)})


def public_table(state: State) -> dict:
    """What every viewer may see at any time."""
    battle = None
    if state.battle is not None:
        attacker, target, cards = state.battle
        battle = {"attacker": attacker, "target": target, "cards": _cards(cards),
                  "value": clauses.attack_value(list(cards), state.setup.max_group)}
    o = state.outcome
    return {
        "variants": list(state.setup.variants),
        "phase": state.phase,
        "dealer": state.dealer,
        "to_act": state.to_act,
        "chips_start": state.setup.chips,
        "chips_out": state.chips_out,
        "stock_count": len(state.stock),
        "discard": _cards(state.discard),
        "battle": battle,
        "bids": [{"seat": seat, "amount": amount} for seat, amount in state.bids],
        "high_bid": state.high_bid,
        "high_bidder": state.high_bidder,
        "previous_suit": None if state.prev_suit is None else SUITS[state.prev_suit],
        "blind_target": state.blind_target,
        "first_attack": state.first_attack,
        "minimum": state.minimum,
        "seats": [{"seat": seat, "chips": state.chips[seat], "hand_size": len(state.hands[seat])} for seat in range(state.n)],
        "scores": list(state.chips),
        "outcome": None if o is None else {"result": o.result, "winner": o.winner_json(), "scores": list(o.scores)},
    }


def moves_of(state: State, seat: int) -> list[dict]:
    """The legal moves of `seat` (empty unless it is to act), bids summarised (see module doc)."""
    if state.outcome is not None or state.to_act != seat:
        return []
    out, amounts = [], []
    for move in legal_moves(state):
        if move["type"] == "bid":
            amounts.append(move["amount"])
            continue
        entry = {k: v for k, v in move.items() if k != "seat"}
        if "cards" in entry:
            entry["cards"] = _cards(entry["cards"])
        out.append(entry)
    if state.phase == BIDDING and amounts:
        out.append({"type": "bid", "min": min(amounts), "max": max(amounts)})
    return out


def describe(e: dict, names: list[str]) -> str | None:
    """A Batallion event (as stored, cards as strings) in words; None for the generic line."""
    kind = e["type"]
    who = names[e["seat"]] if "seat" in e else ""
    if kind == "dealt":
        up = e["order"][e["hand_size"] * len(names)] if "order" in e else e.get("up_card")
        return f"{names[e['dealer']]} deals {e['hand_size']} cards each; {up} is turned up"
    if kind == "drew":
        what = e.get("card", "a card")
        return f"{who} draws {what} from the {'discard pile' if e['source'] == 'discard' else 'stock'}"
    if kind == "discarded":
        return f"{who} discards {' '.join(e['cards'])}"
    if kind == "bid":
        return f"{who} bids {e['amount']}"
    if kind == "passed":
        return f"{who} passes"
    if kind == "attack_turn":
        skipped = f" ({', '.join(names[s] for s in e['skipped'])} skipped)" if e.get("skipped") else ""
        target = f", must attack {names[e['target']]}" if e.get("target") is not None else ""
        return f"{who} to attack{skipped}{target}"
    if kind == "attacked":
        return f"{who} attacks {names[e['target']]} with {' '.join(e['cards'])}"
    if kind == "defended":
        cards = " ".join(e["cards"]) or "nothing (surrender)"
        return f"{who} defends with {cards}: {e['attack_value']} against {e['defence_value']}"
    if kind == "chips_lost":
        return f"{who} loses {e['amount']} chip(s) out of the game"
    if kind == "chips_paid":
        return f"{who} pays {e['amount']} chip(s) to {names[e['to']]}"
    if kind == "reshuffled":
        return f"the discard pile becomes a new stock of {len(e['order'])} (reshuffle {e['k']})"
    if kind == "ended":
        return f"the game ends ({e['by']}): {', '.join(names[s] for s in e['seats'])} win"
    if kind == "said":
        return f"{who} says: {e['text']}"
    return None
