"""Small Battle at the edges (contract §1, §2): cards, record moves (`arrange`, `strike`, `say`), stored events."""

from __future__ import annotations

from ..cards import format_card, parse_card
from ..kit.codec import check_full_pack, event_codec, full_pack, is_int, move_formatter, say_text
from ..kit.moves import Field, MoveShape, say
from ..rules import InvalidSetup, MalformedMove

MOVE_TYPES = frozenset({"arrange", "strike", "say"})
RANKS = tuple(range(2, 10))  # a formation is one each of 2..9 (SB-1.3)
SUIT_OF_SEAT = (0, 3)  # seat 0 plays the clubs, seat 1 the spades (SB-1.4)
# SB-1.4: A and 3..T of diamonds, then of hearts, in unshuffled-pack order (label `pile`)
PILE = tuple(s * 13 + r for s in (1, 2) for r in (0, 2, 3, 4, 5, 6, 7, 8, 9))
# the moves declared for generic code (domain/kit/moves.py: the OpenAPI document types each from here)
MOVES = (
    MoveShape("arrange", "set the seat's formation face down, once, before the first strike", "SB-1.3",
              (Field("formation", "ranks", "the ranks 2..9, each once, as rank strings, for positions 0..7", "SB-1.3"),),
              (Field("ranks", "ranks", "the ranks to arrange, in any order", "SB-1.3"),)),
    MoveShape("strike", "name one of the opponent's remaining positions for the card drawn", "SB-2.1",
              (Field("position", "int", "the opponent's position struck (0..7, not removed)", "SB-2.1"),)),
    say("SB-4.2"),
)

__all__ = ["MOVE_TYPES", "PILE", "parse_card", "format_card", "pack", "check_deck", "parse_move", "format_move",
           "encode_event", "decode_event", "chance_of", "formation_card"]


def formation_card(seat: int, rank: int) -> int:
    """The card of a rank in a seat's formation (2C..9C for seat 0, 2S..9S for seat 1)."""
    return SUIT_OF_SEAT[seat] * 13 + rank - 1


pack = full_pack  # the 52-card pack of the high-card draw (label `first`, contract §4)


def check_deck(setup, deck: list[int]) -> None:
    """A stacked `deck` is the high-card pack: each card once, and its pairs must not tie all the way (SB-4.3)."""
    check_full_pack(setup, deck)
    if setup.starter is None and first_player(deck) is None:
        raise InvalidSetup("deck", "the high-card draw ties through all 26 pairs (SB-4.3)")


def high(card: int) -> int:
    """SB-1.2: a card's rank for the first-player draw, Ace highest."""
    r = card % 13
    return 14 if r == 0 else r + 1


def first_player(order: list[int]) -> int | None:
    """SB-1.2: seats 0 and 1 take cards 0 and 1, then 2 and 3 while the ranks tie; None if all 26 pairs tie."""
    for i in range(0, 52, 2):
        a, b = high(order[i]), high(order[i + 1])
        if a != b:
            return 0 if a > b else 1
    return None


def parse_move(raw: dict, n: int) -> dict:
    """A record move's own fields (seat and type already checked); raises MalformedMove (SB-4.3)."""
    kind = raw["type"]
    move: dict = {"seat": raw["seat"], "type": kind}
    if kind == "arrange":
        formation = raw.get("formation")
        if not isinstance(formation, list) or not all(isinstance(r, str) for r in formation):
            raise MalformedMove("", "arrange needs a formation: a list of rank strings")  # SB-4.3
        if len(formation) > 64 or any(len(r) > 8 for r in formation):
            raise MalformedMove("formation", "a formation is eight short rank strings")
        move["formation"] = list(formation)  # checked by the rules (SB-1.3): an illegal move, not an invalid record
    elif kind == "strike":
        position = raw.get("position")
        if not is_int(position):
            raise MalformedMove("position", "a strike names a position: an integer (SB-4.3)")
        if abs(position) > 10**6:
            raise MalformedMove("position", "a position is a small integer")
        move["position"] = position
    elif kind == "say":
        move["text"] = say_text(raw)
    return move


format_move = move_formatter(lists=())  # a move holds no card
encode_event, decode_event = event_codec(("order", "pile", "first"))


def chance_of(event: dict) -> dict:
    """The random steps an event fixed: the high-card pack (`first`), the battle pile (`pile`)."""
    if event["type"] != "started":
        return {}
    out = {"pile": list(event["pile"])}
    if event.get("first") is not None:
        out["first"] = list(event["first"])
    return out
