"""El Royale at the edges: card strings, record moves and stored events (contract §1, §2).

Inside the engine a card is an int 0..51 (domain.cards); records and stored events
carry card strings. Every conversion between the two goes through this module.
"""

from __future__ import annotations

from ..cards import format_card, parse_card
from ..kit.codec import card_list, check_full_pack, event_codec, full_pack, move_formatter, say_text
from ..rules import MalformedMove

MOVE_TYPES = frozenset({"attack", "throw_in", "beat", "concede", "pass", "claim", "take", "show", "say"})
CARD_MOVES = frozenset({"attack", "throw_in", "beat", "show"})  # need a cards list
OPTIONAL_CARD_MOVES = frozenset({"take"})  # cards may be absent (an empty take)
_BARE_MOVES = MOVE_TYPES - CARD_MOVES - OPTIONAL_CARD_MOVES - {"say"}  # a seat and a type, nothing else read

__all__ = ["MOVE_TYPES", "CARD_MOVES", "OPTIONAL_CARD_MOVES", "parse_card", "format_card", "pack", "check_deck",
           "parse_move", "format_move", "encode_event", "decode_event", "chance_of"]


pack = full_pack  # the unshuffled pack of contract §4 (the `deal` label shuffles it)
check_deck = check_full_pack


def parse_move(raw: dict, n: int) -> dict:
    """A record move (seat and type already checked) with its cards parsed; raises MalformedMove."""
    kind = raw["type"]
    move = {"seat": raw["seat"], "type": kind}
    if kind in _BARE_MOVES:
        return move
    if kind in CARD_MOVES or (kind in OPTIONAL_CARD_MOVES and "cards" in raw):
        if "cards" not in raw:
            raise MalformedMove("cards", f"a {kind} needs a cards list")
        move["cards"] = card_list(raw["cards"], "cards")
    elif kind in OPTIONAL_CARD_MOVES:
        move["cards"] = []
    if kind == "say":
        move["text"] = say_text(raw)
    return move


format_move = move_formatter()
encode_event, decode_event = event_codec(("cards", "order"))


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
