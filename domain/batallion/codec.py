"""Batallion at the edges (contract §1, §2): card strings with the joker, record moves, stored events.

A card is an int: 0..51 the index in the unshuffled pack (``suit * 13 + rank``, as in
domain.cards) and 52 the joker ``JK``. A card string names a card value; a hand is a
multiset (a sorted tuple of ints).
"""

from __future__ import annotations

from .. import cards as pack_cards
from ..kit.codec import card_list, event_codec, is_int, move_formatter, say_text
from ..kit.moves import Field, MoveShape, cards, say
from ..rules import InvalidSetup, MalformedMove

JOKER = 52
MOVE_TYPES = frozenset({"draw", "discard", "bid", "pass", "attack", "defend", "say"})

# the moves declared for generic code (domain/kit/moves.py: the OpenAPI document types each from here)
MOVES = (
    MoveShape("draw", "acquisition: take the stock's or the discard pile's top card", "BA-2.2",
              (Field("source", "choice", "where the card is taken from", "BA-2.2", choices=("stock", "discard")),)),
    MoveShape("discard", "acquisition: throw one card face up onto the discard pile", "BA-2.2",
              (cards("the one card discarded", "BA-2.2"),)),
    MoveShape("bid", "bidding: bid for the first attack", "BA-3.2",
              (Field("amount", "int", "the bid: 4 or more (5 under five_six), above the high bid, at most the value "
                                      "of the bidder's strongest suit", "BA-3.2"),),
              (Field("min", "int", "the lowest bid allowed now", "BA-3.2"),
               Field("max", "int", "the highest bid allowed now", "BA-3.2"))),
    MoveShape("pass", "bidding: decline to bid", "BA-3.1"),
    MoveShape("attack", "battles: attack another seat with cards of one suit", "BA-4.2",
              (cards("the attacking cards, all of one suit (a joker where BA-1.4 permits)", "BA-4.2"),
               Field("target", "int", "the seat attacked (anyone but the attacker)", "BA-4.1"))),
    MoveShape("defend", "battles: answer an attack with cards of its suit (none: a surrender)", "BA-4.4",
              (cards("the defending cards, of the attack's suit (empty: a surrender)", "BA-4.4"),)),
    say("BA-6.3"),
)


def parse_card(text) -> int:
    """``TD``, ``10d``, ``jk`` ... as a card; raises CardError naming the bad string."""
    if isinstance(text, str) and text.upper() == "JK":
        return JOKER
    return pack_cards.parse_card(text)


def format_card(card: int) -> str:
    """The canonical name of a card: ``TD``, ``JK``."""
    return "JK" if card == JOKER else pack_cards.format_card(card)


def suit_of(card: int) -> int | None:
    """A card's suit index (C D H S = 0..3); a joker has none (BA-1.4)."""
    return None if card == JOKER else card // 13


def pack(setup) -> list[int]:
    """Contract §4: the packs in unshuffled order, then the jokers (the `deal` label shuffles this)."""
    return list(range(52)) * setup.packs + [JOKER] * setup.jokers


def check_deck(setup, deck: list[int]) -> None:
    """A stacked deck must be exactly the game's packs (and jokers only with `jokers`, BA-6.4); raises InvalidSetup."""
    if JOKER in deck and not setup.has("jokers"):
        raise InvalidSetup("deck", "holds jokers but the jokers variant is not in play (BA-6.4)")
    want = pack(setup)
    if sorted(deck) != sorted(want):
        raise InvalidSetup("deck", f"must hold each card exactly {setup.packs} times"
                           + (" and the 4 jokers" if setup.jokers else "") + f" ({len(want)} cards), got {len(deck)} cards")


def parse_move(raw: dict, n: int) -> dict:
    """A record move's own fields (seat and type already checked); raises MalformedMove (BA-6.4)."""
    kind = raw["type"]
    move: dict = {"seat": raw["seat"], "type": kind}
    if kind == "draw":
        if raw.get("source") not in ("stock", "discard"):
            raise MalformedMove("source", "a draw needs source 'stock' or 'discard' (BA-6.4)")
        move["source"] = raw["source"]
    elif kind in ("discard", "attack", "defend"):
        if "cards" not in raw:
            raise MalformedMove("cards", f"a {kind} needs a cards list")
        move["cards"] = card_list(raw["cards"], "cards", parse_card)
        if kind == "attack":
            target = raw.get("target")
            if not is_int(target) or not 0 <= target < n:
                raise MalformedMove("target", f"an attack names the seat attacked, a number from 0 to {n - 1} (BA-6.4)")
            move["target"] = target
    elif kind == "bid":
        amount = raw.get("amount")
        if not is_int(amount):  # any integer is well formed: a bid out of BA-3.2's range is illegal, not invalid
            raise MalformedMove("amount", "a bid needs an integer amount (BA-6.4)")
        move["amount"] = amount
    elif kind == "say":
        move["text"] = say_text(raw)
    return move


format_move = move_formatter(format_card)
encode_event, decode_event = event_codec(("cards", "order", "hand"), parse=parse_card, format=format_card)


def chance_of(event: dict) -> dict:
    """The random steps an event fixed: the deal and dealer, each reshuffle, each blind roll."""
    t = event["type"]
    if t == "dealt":
        return {"deal": list(event["order"]), "dealer": event["dealer"]}
    if t == "reshuffled":
        return {f"reshuffle:{event['k']}": list(event["order"])}
    if t == "attack_turn" and event.get("roll") is not None:
        return {f"blind:{event['tie']}": event["roll"]}
    return {}
