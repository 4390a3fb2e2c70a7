"""The Four Virtues' one judge of legality: `refusal(state, move)`, the first of FV-1..FV-5's checks a move fails.

The checks run in one fixed order — the end (FV-4.3); say; who may act and which move type the step allows (a
forced discard owed, the turn, the draw that opens it: FV-3.4, FV-2.1); then the move's own checks — and each
is a named predicate returning the RuleViolation (clause, reason) it finds, or None. `decider.step` raises what
`refusal` finds and then only applies the move; `moves.legal_moves` proposes candidates from the hand's
structure and keeps those these same predicates let pass, so no rule is stated twice.
"""

from __future__ import annotations

from ..cards import format_card
from ..rules import RuleViolation
from . import clauses
from .clauses import CLUBS, HEARTS, SPADES, is_face
from .state import DRAW, FINAL, State

VIRTUE_KEYS = ("lowered", "force", "draw")  # a meld's virtue choices (FV-3.3, FV-3.4, FV-3.5), by the move's key


def refusal(s: State, move: dict) -> RuleViolation | None:
    """Why the rules refuse `move` now (the first check it fails), or None for a legal move."""
    over = over_refusal(s)
    if over is not None:
        return over
    kind, seat = move["type"], move["seat"]
    if kind == "say":
        return None
    return turn_refusal(s, seat, kind) or move_refusal(s, seat, move)


def move_refusal(s: State, seat: int, move: dict) -> RuleViolation | None:
    """The checks of the move's own type, once the seat may make a move of that type now."""
    kind = move["type"]
    if kind == "forced_discard":
        return forced_discard_refusal(s, seat, move["cards"])
    if kind == "draw":
        return draw_refusal(s, move)
    if kind == "meld":
        return meld_refusal(s, seat, move)
    if kind == "add":
        return add_refusal(s, seat, move["meld"], move["cards"])
    if kind == "discard":
        return discard_refusal(s, seat, move["cards"])
    if kind == "done":
        return done_refusal(s)
    return None


def over_refusal(s: State) -> RuleViolation | None:
    """FV-4.3: no move after the game's end."""
    if s.outcome is not None:
        return RuleViolation("FV-4.3", "the game is over: no further moves")
    return None


def turn_refusal(s: State, seat: int, kind: str) -> RuleViolation | None:
    """FV-3.4, FV-2.1: an owed forced discard comes first; else the seat whose turn it is, opening it with a draw."""
    if s.owed is not None:
        owing, count = s.owed
        if kind != "forced_discard" or seat != owing:
            return RuleViolation("FV-3.4", f"seat {owing} owes a forced discard of {count} first")
        return None
    if seat != s.turn:
        return RuleViolation("FV-2.1", f"not your turn: seat {s.turn} is to play")
    if kind == "forced_discard":
        return RuleViolation("FV-3.4", "no forced discard is owed")
    if s.phase == DRAW:
        if kind != "draw":
            return RuleViolation("FV-2.1", "a turn begins with a draw")
        return None
    if kind == "draw":
        return RuleViolation("FV-2.1", "you drew already this turn")
    return None


def forced_discard_refusal(s: State, seat: int, cards: list[int]) -> RuleViolation | None:
    """FV-3.4: exactly the owed number of cards, all held."""
    if not clauses.holds(s.hands[seat], cards):
        return RuleViolation("FV-3.4", "you do not hold those cards")
    count = s.owed[1]
    if len(cards) != count:
        return RuleViolation("FV-3.4", f"discard exactly {count} card(s)")
    return None


def draw_refusal(s: State, move: dict) -> RuleViolation | None:
    """FV-2.2: the discard pile's top card (its `count`, if given, is 1), or one or two cards the stock holds."""
    if move["source"] == "discard":
        if move.get("count", 1) != 1:
            return RuleViolation("FV-2.2", "the discard pile gives its top card only")
        if not s.discard:
            return RuleViolation("FV-2.2", "the discard pile is empty")
        return None
    count = move["count"]
    if count not in (1, 2):
        return RuleViolation("FV-2.2", "draw one or two cards from the stock")
    if count > len(s.stock):
        return RuleViolation("FV-2.2", f"the stock holds {len(s.stock)} card(s)")
    return None


def meld_refusal(s: State, seat: int, move: dict) -> RuleViolation | None:
    """FV-2.3, FV-3.1, FV-3.3..FV-3.5, FV-5.1: a meld's checks in order — its cards, its face, the virtue its
    choices need, the lowering, the meld itself, then `force` and `draw`."""
    cards, face = move["cards"], move.get("face")
    hand = s.hands[seat]
    low = move.get("lowered")
    lowered = None if low is None else (low["card"], low["rank"])
    numbers = len(cards)
    return (meld_cards_refusal(hand, cards, face) or face_refusal(hand, face) or virtue_refusal(face, move)
            or (None if lowered is None else lowering_refusal(cards, *lowered))
            or meld_kind_refusal(cards, lowered)
            or force_refusal(move.get("force"), numbers) or spades_draw_refusal(s, move.get("draw"), numbers))


def meld_cards_refusal(hand, cards: list[int], face: int | None) -> RuleViolation | None:
    """FV-1.1, FV-3.1, FV-2.3: a meld's cards are number cards of the hand (a face card goes in `face`)."""
    faces = [c for c in cards if is_face(c)]
    if faces:
        return RuleViolation("FV-3.1" if face is not None else "FV-1.1",
                             f"face cards are never melded as cards ({format_card(faces[0])}); use `face`")
    if not clauses.holds(hand, cards):
        return RuleViolation("FV-2.3", "you do not hold all of those cards")
    return None


def face_refusal(hand, face: int | None) -> RuleViolation | None:
    """FV-3.1: a meld's face card, if any, is a J, Q or K of the hand."""
    if face is None:
        return None
    if not is_face(face):
        return RuleViolation("FV-3.1", f"{format_card(face)} is not a face card")
    if face not in hand:
        return RuleViolation("FV-3.1", f"you do not hold {format_card(face)}")
    return None


def virtue_refusal(face: int | None, keys) -> RuleViolation | None:
    """FV-5.1: a choice (`keys`: the move, or the names of its choices) needs its virtue's face: clubs lowers a card,
    hearts forces a discard, spades draws."""
    suit = None if face is None else face // 13
    if "lowered" in keys and suit != CLUBS:
        return RuleViolation("FV-3.3", "only a clubs face card lowers a card (FV-5.1)")
    if "force" in keys and suit != HEARTS:
        return RuleViolation("FV-3.4", "only a hearts face card forces a discard (FV-5.1)")
    if "draw" in keys and suit != SPADES:
        return RuleViolation("FV-3.5", "only a spades face card draws (FV-5.1)")
    return None


def lowering_refusal(cards, card: int, rank: int) -> RuleViolation | None:
    """FV-3.3: one of the meld's cards, lowered by at least one rank to a number rank, never below an Ace (an Ace
    cannot be lowered)."""
    if card not in cards:
        return RuleViolation("FV-3.3", "the lowered card must be one of the meld's cards")
    if rank < 0:  # a record's rank is a letter, A..K; a move built in code could name any integer
        return RuleViolation("FV-3.3", "a card is never lowered below an Ace")
    if rank >= 10:
        return RuleViolation("FV-3.3", "a card is lowered to a number rank, never to J, Q or K")
    if card % 13 == 0 or rank >= card % 13:
        return RuleViolation("FV-3.3", "a lowering lowers by at least one rank (an Ace cannot be lowered)")
    return None


def meld_kind_refusal(cards, lowered) -> RuleViolation | None:
    """FV-2.3: the cards (one possibly lowered) make a set or a run."""
    if clauses.meld_kind(cards, lowered) is None:
        return RuleViolation("FV-2.3", "a meld is three or more number cards of one rank, or in sequence in one suit (Ace low)")
    return None


def force_refusal(force: int | None, numbers: int) -> RuleViolation | None:
    """FV-3.4: a hearts meld forces 0..n discards (n: its number cards); None: no force named."""
    if force is not None and not 0 <= force <= numbers:
        return RuleViolation("FV-3.4", f"name a number from 0 to {numbers}, the meld's number cards")
    return None


def spades_draw_refusal(s: State, draw: int | None, numbers: int) -> RuleViolation | None:
    """FV-3.5: a spades meld draws 0..n cards (n: its number cards), no more than the stock holds; None: no draw."""
    if draw is None:
        return None
    if not 0 <= draw <= numbers:
        return RuleViolation("FV-3.5", f"draw from 0 to {numbers} cards, the meld's number cards")
    if draw > len(s.stock):
        return RuleViolation("FV-3.5", f"the stock holds {len(s.stock)} card(s)")
    return None


def add_refusal(s: State, seat: int, k: int, cards: list[int]) -> RuleViolation | None:
    """FV-2.4, FV-3.1: one or more number cards of the hand that leave meld `k` of this round a meld."""
    if not 0 <= k < len(s.melds):
        return RuleViolation("FV-2.4", f"there is no meld {k} this round")
    faces = [c for c in cards if is_face(c)]
    if faces:
        return RuleViolation("FV-3.1", f"a face card is never added to a meld ({format_card(faces[0])})")
    if not cards:
        return RuleViolation("FV-2.4", "add at least one card")
    if not clauses.holds(s.hands[seat], cards):
        return RuleViolation("FV-2.4", "you do not hold all of those cards")
    meld = s.melds[k]
    if clauses.meld_kind(list(meld.cards) + list(cards), meld.lowered) is None:
        return RuleViolation("FV-2.4", "the meld would no longer be valid")
    return None


def discard_refusal(s: State, seat: int, cards: list[int]) -> RuleViolation | None:
    """FV-2.1: a turn ends by discarding one card of the hand."""
    if len(cards) != 1:
        return RuleViolation("FV-2.1", "discard exactly one card")
    if not clauses.holds(s.hands[seat], cards):
        return RuleViolation("FV-2.1", f"you do not hold {format_card(cards[0])}")
    return None


def done_refusal(s: State) -> RuleViolation | None:
    """FV-4.1: `done` ends the round only in the final melding, after the stock ran out this turn."""
    if s.phase != FINAL:
        return RuleViolation("FV-4.1", "done ends the round only after the stock ran out this turn")
    return None
