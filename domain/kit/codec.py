"""A game at its edges, written once: card strings in record moves, stored events with cards as strings, `say`, the
full pack, and `Codec`, the one declaration of all of them that a game's spec carries (domain/spec.py).

Inside a decider a card is an int in the game's own coding (domain.cards); records and stored events carry card
strings. A game composes these parts with its own card functions (a joker, a refusal of one) and its own fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..cards import PACK, CardError, convert_cards, format_card, parse_card, parse_cards
from ..rules import InvalidSetup, MalformedMove


def card_list(value, field: str, parse: Callable = parse_card) -> list[int]:
    """A record's list of card strings as cards; raises MalformedMove naming the field, or the bad card's place."""
    if parse is parse_card and type(value) is list:
        try:
            return parse_cards(value)
        except CardError:
            pass  # the loop below names the bad card's place
    if not isinstance(value, list):
        raise MalformedMove(field, "must be a list of card strings")
    out = []
    for i, text in enumerate(value):
        try:
            out.append(parse(text))
        except CardError as e:
            raise MalformedMove(f"{field}[{i}]", str(e)) from None
    return out


def is_int(value) -> bool:
    """Whether a JSON value is an integer (a bool is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def say_text(raw: dict) -> str:
    """The text of a record's `say` move (contract §2: table talk, any game); raises MalformedMove."""
    if not isinstance(raw.get("text"), str):
        raise MalformedMove("text", "a say needs a text string")
    return raw["text"]


def full_pack(setup=None) -> list[int]:
    """The 52-card pack in unshuffled order (contract §4), what a game of one pack shuffles."""
    return list(PACK)


def check_full_pack(setup, deck: list[int]) -> None:
    """A record's stacked `deck` holds each of the 52 cards exactly once; raises InvalidSetup."""
    if len(deck) != 52 or len(set(deck)) != 52:
        raise InvalidSetup("deck", f"must hold each of the 52 cards exactly once "
                                   f"(got {len(deck)} cards, {len(set(deck))} distinct)")


def event_codec(lists: Iterable[str], singles: Iterable[str] = ("card",), parse: Callable = parse_card,
                format: Callable = format_card, more: Callable | None = None) -> tuple[Callable, Callable]:
    """``(encode_event, decode_event)`` for events whose cards stand in the list fields `lists` and the single-card
    fields `singles` (`more(event, convert)`: a game's nested cards); absent and null fields stay as they are."""
    lists, singles = tuple(lists), tuple(singles)

    def encode_event(e: dict) -> dict:
        """A domain event with its cards as strings (how it is stored)."""
        out = convert_cards(e, format, lists, singles)
        return out if more is None else more(out, format)

    def decode_event(e: dict) -> dict:
        """The inverse of encode_event."""
        out = convert_cards(e, parse, lists, singles)
        return out if more is None else more(out, parse)

    return encode_event, decode_event


def move_formatter(format: Callable = format_card, lists: Iterable[str] = ("cards",), singles: Iterable[str] = (),
                   more: Callable | None = None) -> Callable[[dict], dict]:
    """``format_move``: the record form of a move, the cards of its `lists` and `singles` fields as strings (`more`:
    a game's own fields), other lists copied."""
    lists, singles = tuple(lists), tuple(singles)

    def format_move(move: dict) -> dict:
        """The record form of a move: cards as strings."""
        out = {k: (list(v) if isinstance(v, list) else v) for k, v in move.items()}
        out = convert_cards(out, format, lists, singles)
        return out if more is None else more(out, format)

    return format_move


@dataclass(frozen=True)
class Codec:
    """Everything that writes one game's values down and reads them back, declared once in its spec: the record's move
    types and moves, the stored events, the snapshots of its State, its cards and its pack. Generic code (records,
    the aggregate, the store, views, verification) reads these here and never asks which game it is."""

    move_types: frozenset[str]  # every record move type, `say` included
    parse_move: Callable[[dict, int], dict]  # (raw, n): seat and type checked already; raises MalformedMove
    format_move: Callable[[dict], dict]
    encode_event: Callable[[dict], dict]
    decode_event: Callable[[dict], dict]
    State: type  # registered with the store for snapshots
    dump_state: Callable  # (state) -> JSON-safe data
    load_state: Callable  # (data) -> state
    parse_card: Callable = parse_card  # raises domain.cards.CardError
    format_card: Callable = format_card
    pack: Callable = full_pack  # (setup) -> the unshuffled pack a record's `deck` label shuffles
    check_deck: Callable = check_full_pack  # (setup, deck): a record's stacked deck; raises InvalidSetup
    moves: tuple = ()  # MoveShape of each move type (domain/kit/moves.py): what the document and the bots read
    seat_fields: frozenset[str] = frozenset()  # a move's fields naming a seat (a target): texts give the player's name
