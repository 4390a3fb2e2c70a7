"""El Royale at the edges: card strings, record moves and stored events (contract §1, §2).

Inside the engine a card is an int 0..51 (domain.cards); records and stored events
carry card strings. Every conversion between the two goes through this module.
"""

from __future__ import annotations

from ..cards import format_card, parse_card
from ..kit.codec import card_list, check_full_pack, event_codec, full_pack, move_formatter, say_text
from ..kit.moves import Field, MoveShape, cards, say
from ..rules import MalformedMove

MOVE_TYPES = frozenset({"attack", "throw_in", "beat", "concede", "pass", "claim", "take", "show", "say"})
CARD_MOVES = frozenset({"attack", "throw_in", "beat", "show"})  # need a cards list
OPTIONAL_CARD_MOVES = frozenset({"take"})  # cards may be absent (an empty take)
_BARE_MOVES = MOVE_TYPES - CARD_MOVES - OPTIONAL_CARD_MOVES - {"say"}  # a seat and a type, nothing else read

# the moves declared for generic code (domain/kit/moves.py: the OpenAPI document types each from here)
MOVES = (
    MoveShape("attack", "open a battle: one card, or several of one rank, onto the battle pile", "ER-3.1",
              (cards("the cards laid, in the order they go onto the pile", "ER-3.1"),)),
    MoveShape("throw_in", "join the attack (join window) or reinforce after a beat: cards of the rank the window "
              "calls for", "ER-3.7", (cards("the cards thrown in, in order", "ER-3.7"),)),
    MoveShape("beat", "the defence: beat the attack with as many cards, each beating one attacking card", "ER-3.4",
              (cards("the beating cards, in the order of the attacking cards they beat", "ER-3.4"),)),
    MoveShape("concede", "the defender takes every card of the battle pile into hand", "ER-3.5"),
    MoveShape("pass", "decline the window offered (join, reinforce or claim)", "ER-3.3"),
    MoveShape("claim", "claim the battle pile in the claim window", "ER-3.8"),
    MoveShape("take", "the elimination pick: take some of the eliminated player's laid-out cards", "ER-5.2",
              (cards("the cards taken (none: an empty take)", "ER-5.2", required=False),),
              (Field("from", "cards", "the laid-out cards the pick may take from", "ER-5.2"),
               Field("max", "int", "the most cards the pick may take", "ER-5.2"))),
    MoveShape("show", "reveal cards from hand to the whole table; they stay on view", "ER-7.2",
              (cards("the cards shown", "ER-7.2"),)),
    say("ER-7.1"),
)

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
