"""The Four Virtues' decider: validate a move against FV-1..FV-5 and say what happened, as events."""

from __future__ import annotations

from ..cards import format_card
from ..randomness import Chance, OutcomeMismatch
from ..rules import InvalidSetup, RuleViolation
from . import clauses
from .clauses import CLUBS, HEARTS, SPADES, is_face
from .codec import pack
from .setup import Setup
from .state import DRAW, FINAL, State, apply, initial_state


def _deal_event(round_: int, dealer: int, chance: Chance) -> dict:
    order = chance.shuffle(f"deal:{round_}", pack())
    return {"type": "dealt", "round": round_, "dealer": dealer, "order": order}


def start(setup: Setup, chance: Chance) -> list[dict]:
    """FV-1.2, FV-1.3: the first dealer (from the seed unless given) and round 1's deal."""
    try:
        dealer = setup.dealer if setup.dealer is not None else chance.randbelow("dealer", 2)
        return [_deal_event(1, dealer, chance)]
    except OutcomeMismatch as e:
        raise InvalidSetup("outcomes", str(e)) from None


def decide(state: State, move: dict, chance: Chance) -> list[dict]:
    return step(state, move, chance)[0]


def _emit(s: State, events: list[dict], event: dict) -> None:
    events.append(event)
    apply(s, event)


def step(state: State, move: dict, chance: Chance) -> tuple[list[dict], State]:
    """decide and evolve in one pass: the events and the state after them."""
    if state.outcome is not None:
        raise RuleViolation("FV-4.3", "the game is over: no further moves")
    s = state.clone()
    events: list[dict] = []
    kind, seat = move["type"], move["seat"]
    if kind == "say":
        _emit(s, events, {"type": "said", "seat": seat, "text": move["text"]})
        return events, s
    if s.owed is not None:
        owing, count = s.owed
        if kind != "forced_discard" or seat != owing:
            raise RuleViolation("FV-3.4", f"seat {owing} owes a forced discard of {count} first")
        cards = move["cards"]
        if not clauses.holds(s.hands[seat], cards):
            raise RuleViolation("FV-3.4", "you do not hold those cards")
        if len(cards) != count:
            raise RuleViolation("FV-3.4", f"discard exactly {count} card(s)")
        _emit(s, events, {"type": "forced_discarded", "seat": seat, "cards": list(cards)})
        return events, s
    if seat != s.turn:
        raise RuleViolation("FV-2.1", f"not your turn: seat {s.turn} is to play")
    if kind == "forced_discard":
        raise RuleViolation("FV-3.4", "no forced discard is owed")
    if s.phase == DRAW:
        if kind != "draw":
            raise RuleViolation("FV-2.1", "a turn begins with a draw")
        _draw(s, events, seat, move)
        return events, s
    if kind == "draw":
        raise RuleViolation("FV-2.1", "you drew already this turn")
    if kind == "meld":
        _meld(s, events, seat, move)
    elif kind == "add":
        _add(s, events, seat, move)
    elif kind == "discard":
        cards = move["cards"]
        if len(cards) != 1:
            raise RuleViolation("FV-2.1", "discard exactly one card")
        if not clauses.holds(s.hands[seat], cards):
            raise RuleViolation("FV-2.1", f"you do not hold {format_card(cards[0])}")
        final = s.phase == FINAL
        _emit(s, events, {"type": "discarded", "seat": seat, "cards": list(cards)})
        if not s.hands[seat] or final:
            _end_round(s, events, chance, "empty" if not s.hands[seat] else "stock")
        return events, s
    elif kind == "done":
        if s.phase != FINAL:
            raise RuleViolation("FV-4.1", "done ends the round only after the stock ran out this turn")
        _emit(s, events, {"type": "done", "seat": seat})
        _end_round(s, events, chance, "stock")
        return events, s
    if not s.hands[seat]:  # FV-4.1: emptying the hand by melding or adding ends the round at once
        _end_round(s, events, chance, "empty")
    return events, s


def _draw(s: State, events: list[dict], seat: int, move: dict) -> None:
    if move["source"] == "discard":
        if move.get("count", 1) != 1:
            raise RuleViolation("FV-2.2", "the discard pile gives its top card only")
        if not s.discard:
            raise RuleViolation("FV-2.2", "the discard pile is empty")
        _emit(s, events, {"type": "drew", "seat": seat, "source": "discard", "cards": [s.discard[-1]]})
        return
    count = move["count"]
    if count not in (1, 2):
        raise RuleViolation("FV-2.2", "draw one or two cards from the stock")
    if count > len(s.stock):
        raise RuleViolation("FV-2.2", f"the stock holds {len(s.stock)} card(s)")
    _emit(s, events, {"type": "drew", "seat": seat, "source": "stock", "cards": list(s.stock[:count])})


def _meld(s: State, events: list[dict], seat: int, move: dict) -> None:
    cards, face = move["cards"], move.get("face")
    hand = s.hands[seat]
    faces = [c for c in cards if is_face(c)]
    if faces:
        raise RuleViolation("FV-3.1" if face is not None else "FV-1.1",
                            f"face cards are never melded as cards ({format_card(faces[0])}); use `face`")
    if not clauses.holds(hand, cards):
        raise RuleViolation("FV-2.3", "you do not hold all of those cards")
    if face is not None:
        if not is_face(face):
            raise RuleViolation("FV-3.1", f"{format_card(face)} is not a face card")
        if face not in hand:
            raise RuleViolation("FV-3.1", f"you do not hold {format_card(face)}")
    suit = None if face is None else face // 13
    if "lowered" in move and suit != CLUBS:
        raise RuleViolation("FV-3.3", "only a clubs face card lowers a card (FV-5.1)")
    if "force" in move and suit != HEARTS:
        raise RuleViolation("FV-3.4", "only a hearts face card forces a discard (FV-5.1)")
    if "draw" in move and suit != SPADES:
        raise RuleViolation("FV-3.5", "only a spades face card draws (FV-5.1)")
    lowered = None
    if "lowered" in move:
        card, rank = move["lowered"]["card"], move["lowered"]["rank"]
        if card not in cards:
            raise RuleViolation("FV-3.3", "the lowered card must be one of the meld's cards")
        if rank >= 10:
            raise RuleViolation("FV-3.3", "a card is lowered to a number rank, never to J, Q or K")
        if card % 13 == 0 or rank >= card % 13:
            raise RuleViolation("FV-3.3", "a lowering lowers by at least one rank (an Ace cannot be lowered)")
        lowered = (card, rank)
    if clauses.meld_kind(cards, lowered) is None:
        raise RuleViolation("FV-2.3", "a meld is three or more number cards of one rank, or in sequence in one suit (Ace low)")
    numbers = len(cards)
    event = {"type": "melded", "seat": seat, "cards": list(cards), "face": face,
             "lowered": None if lowered is None else {"card": lowered[0], "rank": lowered[1]}}
    force = move.get("force")
    if force is not None:
        if not 0 <= force <= numbers:
            raise RuleViolation("FV-3.4", f"name a number from 0 to {numbers}, the meld's number cards")
        event["force"] = force
    draw = move.get("draw")
    if draw is not None:
        if not 0 <= draw <= numbers:
            raise RuleViolation("FV-3.5", f"draw from 0 to {numbers} cards, the meld's number cards")
        if draw > len(s.stock):
            raise RuleViolation("FV-3.5", f"the stock holds {len(s.stock)} card(s)")
        event["draw"] = draw
    event["points"] = clauses.meld_points(clauses.Meld(tuple(cards), face, seat, (seat,) * numbers, lowered, numbers), seat)
    opponent = 1 - seat
    owed = 0
    if force:
        owed = min(force, len(s.hands[opponent]))
    event["owed"] = owed
    _emit(s, events, event)
    if draw:
        _emit(s, events, {"type": "drew", "seat": seat, "source": "stock", "cards": list(s.stock[:draw]), "spades": True})
    if not s.hands[seat] and s.owed is not None:  # the melder emptied the hand: the round ends, the force lapses
        s.owed = None
        events[-1 if not draw else -2]["owed"] = 0


def _add(s: State, events: list[dict], seat: int, move: dict) -> None:
    cards, k = move["cards"], move["meld"]
    if not 0 <= k < len(s.melds):
        raise RuleViolation("FV-2.4", f"there is no meld {k} this round")
    faces = [c for c in cards if is_face(c)]
    if faces:
        raise RuleViolation("FV-3.1", f"a face card is never added to a meld ({format_card(faces[0])})")
    if not cards:
        raise RuleViolation("FV-2.4", "add at least one card")
    if not clauses.holds(s.hands[seat], cards):
        raise RuleViolation("FV-2.4", "you do not hold all of those cards")
    meld = s.melds[k]
    if clauses.meld_kind(list(meld[0]) + list(cards), meld[4]) is None:
        raise RuleViolation("FV-2.4", "the meld would no longer be valid")
    grown = meld._replace(cards=meld.cards + tuple(cards), contributors=meld.contributors + (seat,) * len(cards))
    points = sum(line.points for line in clauses.meld_lines(grown)[len(meld.cards):])
    _emit(s, events, {"type": "added", "seat": seat, "meld": k, "cards": list(cards), "points": points})


def _end_round(s: State, events: list[dict], chance: Chance, by: str) -> None:
    """FV-4: score the round; the game ends once a player reaches the target (the higher wins, a tie plays on)."""
    points = [clauses.round_points(s.melds, seat) for seat in range(2)]
    scores = [s.scores[seat] + points[seat] for seat in range(2)]
    lines = [{"meld": k, "card": line.card, "seat": line.seat, "added": line.added, "virtue": line.virtue,
              "points": line.points} for k, meld in enumerate(s.melds) for line in clauses.meld_lines(meld)]
    _emit(s, events, {"type": "round_ended", "round": s.round, "by": by, "points": points, "scores": scores,
                      "lines": lines})
    target = s.setup.target
    reached = [seat for seat in range(2) if scores[seat] >= target]
    if reached and not (len(reached) == 2 and scores[0] == scores[1]):
        winner = max(reached, key=lambda seat: scores[seat])
        _emit(s, events, {"type": "won", "seats": [winner], "scores": scores})
        return
    try:
        _emit(s, events, _deal_event(s.round + 1, 1 - s.dealer, chance))
    except OutcomeMismatch as e:
        raise RuleViolation("FV-1.3", str(e)) from None


def final(s: State) -> dict:
    """The verdict's `final` object (contract §2)."""
    melds = []
    for cards, face, owner, contributors, lowered, _laid in s.melds:
        melds.append({"cards": [format_card(c) for c in cards], "face": None if face is None else format_card(face),
                      "owner": owner, "contributors": list(contributors),
                      "lowered": None if lowered is None else {"card": format_card(lowered[0]), "rank": "A23456789TJQK"[lowered[1]]}})
    return {
        "hands": {str(seat): [format_card(c) for c in s.hands[seat]] for seat in range(2)},
        "scores": {str(seat): s.scores[seat] for seat in range(2)},
        "round": s.round,
        "melds": melds,
        "stock_count": len(s.stock),
        "discard": [format_card(c) for c in s.discard],
    }
