"""El Royale's table as each viewer may see it: a pure function of a State (ER-2.2, ER-2.5, ER-5.2, ER-7).

Public to all (ER-7.3, ER-7.2, ER-5.2): the battle pile in order, every hand's size, the
deck and discard sizes, shown cards, laid-out cards, whose turn it is and the roles. Private:
a hand (its own seat only), the deck and the discard pile (the referee only). Once the game
is over the whole game is disclosed: every viewer gets the referee's table.

Shape (cards are strings, hands are lists in pack order)::

    {"edition", "phase", "dealer", "to_act", "attacker", "defender", "substitute_for",
     "battles", "battle_limit", "battle_pile", "top", "deck_count", "discard_count",
     "reshuffles", "eliminated", "laid_out": {"seat", "cards"} | None,
     "seats": [{"seat", "hand_size", "shown", "eliminated", "hand"?}],
     "outcome": {"result", "winner"} | None,
     "deck"?, "discard"?,            # the referee (or everyone once over): deck in draw order
     "hand"?, "legal_moves"?}        # a seat viewer: its own hand and, when to act, its moves

`legal_moves` lists the moves of `domain.el_royale.legal_moves` without `seat`, cards as
strings; `say` and `show` (open to every seat at any time) are not listed. In the `take`
phase (ER-5.2), where every subset of the laid-out cards up to the seat's room is legal
(up to 2^16 moves), the list is one summary entry instead:
``{"type": "take", "from": [laid-out cards], "max": k}``: take any k or fewer of `from`
(k = 0: only the empty take).
"""

from __future__ import annotations

from domain.cards import cards_of, format_card, format_cards
from domain.el_royale import clauses, legal_moves
from domain.el_royale.state import TAKE, State

from .events import redact  # noqa: F401  (the plug-in's event redaction)
from ..kit import with_hands
from ..viewers import Viewer


def table(state: State, viewer: Viewer, disclose_all: bool = False) -> dict:
    """The table as `viewer` may see it; the referee's table with `disclose_all` (projections.views passes it once
    the game is over, unless the end is withheld from this viewer)."""
    return with_hands(public_table(state), viewer, viewer.is_referee or disclose_all, lambda seat: _hand(state, seat),
                      lambda seat: moves_of(state, seat), lambda: hidden_piles(state))


def public_table(state: State) -> dict:
    """What every viewer may see at any time (ER-7.3, ER-7.2, ER-5.2)."""
    laid = None
    if state.laid_seat is not None:
        laid = {"seat": state.laid_seat, "cards": format_cards(cards_of(state.laid_out))}
    return {
        "edition": state.setup.edition,
        "phase": state.phase,
        "dealer": state.dealer,
        "to_act": state.to_act,
        "attacker": state.attacker,
        "defender": state.defender,
        "substitute_for": state.substitute_for,
        "battles": state.battles,
        "battle_limit": state.setup.battle_limit,
        "battle_pile": format_cards(state.pile),
        "top": None if state.top is None else format_card(state.top),
        "deck_count": state.deck_count,
        "discard_count": state.discard.bit_count(),
        "reshuffles": state.reshuffles,
        "eliminated": [seat for seat in range(state.n) if not state.surviving(seat)],
        "laid_out": laid,
        "seats": [{"seat": seat, "hand_size": state.hands[seat].bit_count(),
                   "shown": format_cards(cards_of(state.shown[seat])), "eliminated": not state.surviving(seat)}
                  for seat in range(state.n)],
        "outcome": _outcome(state),
    }


def hidden_piles(state: State) -> dict:
    """The face-down piles (ER-2.5): the deck in draw order (next card first) and the discard pile."""
    return {"deck": format_cards(state.deck[state.deck_pos:]), "discard": format_cards(cards_of(state.discard))}


def moves_of(state: State, seat: int) -> list[dict]:
    """The legal moves of `seat` (empty unless it is to act), summarised in the take phase (see module doc)."""
    if state.outcome is not None or state.to_act != seat:
        return []
    if state.phase == TAKE:
        return [take_summary(state, seat)]
    out = []
    for move in legal_moves(state):
        entry = {"type": move["type"]}
        if "cards" in move:
            entry["cards"] = format_cards(move["cards"])
        out.append(entry)
    return out


def take_summary(state: State, seat: int) -> dict:
    """ER-5.2 as one entry: any subset of the laid-out cards of at most `max` cards."""
    laid = cards_of(state.laid_out)
    return {"type": "take", "from": format_cards(laid), "max": min(clauses.take_room(state, seat), len(laid))}


def _hand(state: State, seat: int) -> list[str]:
    return format_cards(cards_of(state.hands[seat]))


def _outcome(state: State) -> dict | None:
    o = state.outcome
    return None if o is None else {"result": o.result, "winner": o.winner_json()}


def describe(e: dict, names: list[str]) -> str | None:
    """An El Royale event (as stored, cards as strings) in words; None for the generic line."""
    kind = e["type"]
    who = names[e["seat"]] if "seat" in e else ""
    if "cards" in e:
        return f"{who} {kind.replace('_', ' ')} {' '.join(e['cards'])}"
    if kind == "drew":
        return f"{who} draws a card"
    if kind == "reshuffled":
        return f"the discard pile is shuffled into a new deck of {len(e['order'])} (reshuffle {e['k']})"
    if kind == "battle_started":
        sub = f" (for {names[e['substitute_for']]})" if e.get("substitute_for") is not None else ""
        return f"battle: {names[e['attacker']]} attacks {names[e['defender']]}{sub}"
    if kind == "said":
        return f"{who} says: {e['text']}"
    if kind == "won":
        how = " by elimination (ER-4.3)" if e["by"] == "elimination" else ""
        return f"{' and '.join(names[s] for s in e['seats'])} {'wins' if len(e['seats']) == 1 else 'win'}{how}"
    if kind == "drawn":
        return f"the game is drawn after {e['battles']} battles (ER-4.4)"
    if kind == "dealt":
        return f"{names[e['dealer']]} deals four cards each"
    return None
