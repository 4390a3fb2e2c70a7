"""The Four Virtues' table as each viewer may see it, and its stored events redacted (FV-1.3, FV-2, FV-3, FV-4).

Public: the round, dealer, whose turn and the phase, a forced discard owed, the scores of finished
rounds, the stock's size, the discard pile face up, every meld with its face card, lowering and who
contributed each card (and what it scores for whom, line by line), each hand's size. Private: a hand
(its own seat), the stock's order (the referee). Everything is disclosed once the game is over.
"""

from __future__ import annotations

from domain.cards import format_card
from domain.four_virtues import legal_moves
from domain.four_virtues.clauses import HEARTS, SPADES, meld_lines, meld_points
from domain.four_virtues.state import State

from .kit import redactor, with_hands, without
from .viewers import Viewer


def _cards(cards) -> list[str]:
    return [format_card(c) for c in cards]


def _meld(meld, number: int) -> dict:
    cards, face, owner, contributors, lowered, _laid = meld
    lines = [{"card": format_card(line.card), "seat": line.seat, "added": line.added, "virtue": line.virtue,
              "points": line.points} for line in meld_lines(meld)]
    return {"number": number, "cards": _cards(cards), "face": None if face is None else format_card(face), "owner": owner,
            "virtue": meld.virtue, "contributors": list(contributors),
            "lowered": None if lowered is None else {"card": format_card(lowered[0]), "rank": "A23456789TJQK"[lowered[1]]},
            "scores": [meld_points(meld, seat) for seat in range(2)], "lines": lines}


def moves_of(state: State, seat: int) -> list[dict]:
    """The seat's legal moves for its page, cards as strings: a forced discard as one entry with its count (any
    `count` cards of the hand), a hearts or spades meld once with `force_max` / `draw_max` instead of one
    entry per number."""
    out = []
    for move in legal_moves(state):
        if move["seat"] != seat:
            continue
        if move["type"] == "forced_discard":
            return [{"type": "forced_discard", "count": len(move["cards"])}]
        if move["type"] == "meld" and ("force" in move or "draw" in move):
            continue
        entry = {k: (_cards(v) if k == "cards" else v) for k, v in move.items() if k != "seat"}
        if "face" in entry:
            suit = entry["face"] // 13
            entry["face"] = format_card(entry["face"])
            if suit == HEARTS:
                entry["force_max"] = len(move["cards"])
            elif suit == SPADES:
                entry["draw_max"] = min(len(move["cards"]), len(state.stock))
        if "lowered" in entry:
            entry["lowered"] = {"card": format_card(move["lowered"]["card"]), "rank": "A23456789TJQK"[move["lowered"]["rank"]]}
        out.append(entry)
    return out


def table(state: State, viewer: Viewer, disclose_all: bool = False) -> dict:
    """The table as `viewer` may see it."""
    o = state.outcome
    to_act = None if o is not None else (state.owed[0] if state.owed else state.turn)
    out = {
        "round": state.round, "dealer": state.dealer, "to_act": to_act, "turn": state.turn, "phase": state.phase,
        "owed": None if state.owed is None else {"seat": state.owed[0], "count": state.owed[1]},
        "target": state.setup.target, "scores": list(state.scores), "stock_count": len(state.stock),
        "rounds": [{"round": i + 1, "points": list(points), "totals": [sum(r[seat] for r in state.rounds[:i + 1]) for seat in range(2)]}
                   for i, points in enumerate(state.rounds)],
        "discard": _cards(state.discard), "melds": [_meld(m, i) for i, m in enumerate(state.melds)],
        "seats": [{"seat": seat, "hand_size": len(state.hands[seat]), "score": state.scores[seat]} for seat in range(2)],
        "outcome": None if o is None else {"result": o.result, "winner": o.winner_json(), "scores": list(o.scores)},
    }
    return with_hands(out, viewer, viewer.is_referee or disclose_all, lambda seat: _cards(state.hands[seat]),
                      lambda seat: moves_of(state, seat), lambda: {"stock": _cards(state.stock)})


PUBLIC_KINDS = frozenset({"melded", "added", "forced_discarded", "discarded", "done", "round_ended", "won", "said"})


def _dealt(data: dict, viewer: Viewer, n: int) -> dict:
    """FV-1.3: the deal shows each seat its own hand, and everyone the up-card and the stock's size."""
    order, dealer = data["order"], data["dealer"]
    out = {"round": data["round"], "dealer": dealer, "up_card": order[20], "stock_count": len(order) - 21}
    if viewer.role == "seat":
        out["hand"] = order[0:20:2] if viewer.seat != dealer else order[1:20:2]
    return out


def _drew(data: dict, viewer: Viewer, n: int) -> dict:
    """FV-2.2: a draw from the discard pile is seen by all; a stock draw's cards by the drawer only (others: how many)."""
    if data["source"] == "discard" or viewer.is_seat(data["seat"]):
        return dict(data)
    return without(data, "cards") | {"count": len(data["cards"])}


redact = redactor(PUBLIC_KINDS, {"dealt": _dealt, "drew": _drew})


def _line(line: dict, names: list[str]) -> str:
    how = "added" if line["added"] else "laid"
    virtue = f" under {line['virtue']}" if line.get("virtue") else ""
    return f"{line['card']} {how} by {names[line['seat']]}{virtue}: {line['points']}"


def describe(e: dict, names: list[str]) -> str | None:
    """A Four Virtues event in words, a score explained card by card ("7H added by South under diamonds: 14");
    None for the generic line."""
    kind = e["type"]
    who = names[e["seat"]] if "seat" in e else ""
    if kind == "dealt":
        return f"round {e['round']}: {names[e['dealer']]} deals"
    if kind == "drew":
        cards = " ".join(e["cards"]) if "cards" in e else f"{e.get('count', 1)} card(s)"
        return f"{who} draws {cards} from the {'discard pile' if e['source'] == 'discard' else 'stock'}" + \
            (" (spades)" if e.get("spades") else "")
    if kind == "melded":
        extra = f" with {e['face']}" if e.get("face") else ""
        if e.get("lowered"):
            rank = e["lowered"]["rank"]
            extra += f", {e['lowered']['card']} lowered to {'A23456789TJQK'[rank] if isinstance(rank, int) else rank}"
        if e.get("force"):
            extra += f", forcing {e['owed']} discard(s)"
        scored = f": {e['points']}" if "points" in e else ""
        return f"{who} melds {' '.join(e['cards'])}{extra}{scored}"
    if kind == "added":
        scored = f": {e['points']}" if "points" in e else ""
        return f"{who} adds {' '.join(e['cards'])} to meld {e['meld']}{scored}"
    if kind == "forced_discarded":
        return f"{who} discards {' '.join(e['cards'])} (hearts force)"
    if kind == "round_ended":
        text = f"round {e['round']} ends ({e['by']}): points {e['points'][0]} / {e['points'][1]}, totals {e['scores'][0]} / {e['scores'][1]}"
        if e.get("lines"):
            text += "".join(f"\n  meld {line['meld']}: {_line(line, names)}" for line in e["lines"])
        return text
    if kind == "won":
        return f"{names[e['seats'][0]]} wins with {max(e['scores'])}"
    return None
