"""El Royale at the edges: card strings, record moves and stored events (contract §1, §2).

Inside the engine a card is an int 0..51 (domain.cards); records and stored events
carry card strings. Every conversion between the two goes through this module.
"""

from __future__ import annotations

from ..cards import PACK, CardError, convert_cards, format_card, format_cards, parse_card, parse_cards
from ..rules import InvalidSetup, MalformedMove

MOVE_TYPES = frozenset({"attack", "throw_in", "beat", "concede", "pass", "claim", "take", "show", "say"})
CARD_MOVES = frozenset({"attack", "throw_in", "beat", "show"})  # need a cards list
OPTIONAL_CARD_MOVES = frozenset({"take"})  # cards may be absent (an empty take)
_BARE_MOVES = MOVE_TYPES - CARD_MOVES - OPTIONAL_CARD_MOVES - {"say"}  # a seat and a type, nothing else read
_CARD_LISTS = ("cards", "order")  # event fields holding card lists

__all__ = ["MOVE_TYPES", "CARD_MOVES", "OPTIONAL_CARD_MOVES", "parse_card", "format_card", "pack", "check_deck",
           "parse_move", "format_move", "encode_event", "decode_event", "chance_of"]


def pack(setup=None) -> list[int]:
    """The unshuffled pack of contract §4 (the `deal` label shuffles it)."""
    return list(PACK)


def check_deck(setup, deck: list[int]) -> None:
    """A stacked `deck` must hold each of the 52 cards exactly once; raises InvalidSetup."""
    if len(deck) != 52 or len(set(deck)) != 52:
        raise InvalidSetup("deck", f"must hold each of the 52 cards exactly once (got {len(deck)} cards, {len(set(deck))} distinct)")


def _cards(value, field: str) -> list[int]:
    if type(value) is list:
        try:
            return parse_cards(value)
        except CardError:
            pass  # the loop below names the bad card's place
    if not isinstance(value, list):
        raise MalformedMove(field, "must be a list of card strings")
    out = []
    for i, text in enumerate(value):
        try:
            out.append(parse_card(text))
        except CardError as e:
            raise MalformedMove(f"{field}[{i}]", str(e)) from None
    return out


def parse_move(raw: dict, n: int) -> dict:
    """A record move (seat and type already checked) with its cards parsed; raises MalformedMove."""
    kind = raw["type"]
    move = {"seat": raw["seat"], "type": kind}
    if kind in _BARE_MOVES:
        return move
    if kind in CARD_MOVES or (kind in OPTIONAL_CARD_MOVES and "cards" in raw):
        if "cards" not in raw:
            raise MalformedMove("cards", f"a {kind} needs a cards list")
        move["cards"] = _cards(raw["cards"], "cards")
    elif kind in OPTIONAL_CARD_MOVES:
        move["cards"] = []
    if kind == "say":
        if not isinstance(raw.get("text"), str):
            raise MalformedMove("text", "a say needs a text string")
        move["text"] = raw["text"]
    return move


def format_move(move: dict) -> dict:
    """The record form of a move: cards as strings."""
    return {k: (format_cards(v) if k == "cards" else v) for k, v in move.items()}


def encode_event(e: dict) -> dict:
    """A domain event with its cards as strings (how it is stored)."""
    return convert_cards(e, format_card, _CARD_LISTS)


def decode_event(e: dict) -> dict:
    """The inverse of encode_event."""
    return convert_cards(e, parse_card, _CARD_LISTS)


def chance_of(event: dict) -> dict:
    """The random steps an event fixed (label -> outcome): the deal, dealer and starter, each reshuffle."""
    t = event["type"]
    if t == "dealt":
        out = {"deal": list(event["order"]), "dealer": event["dealer"]}
        if "starter" in event:
            out["starter"] = event["starter"]
        return out
    if t == "reshuffled":
        return {f"reshuffle:{event['k']}": list(event["order"])}
    return {}
