"""High Card, the test suite's toy game (rulebook.md): a whole game in its own package, registered by one line
(`tests.toy_game.register`) and never in production. It proves that every generic part of arbiter takes a game
from its spec alone: the API, the pages, records, replay and verify, self-play and the balance report."""

from __future__ import annotations

from contextlib import contextmanager

from domain.cards import PACK, convert_cards, format_card, parse_card
from domain.rules import InvalidSetup, MalformedMove

from .decider import (Setup, State, configure, decide, dump_state, evolve, final, initial_state, legal_moves,
                      load_state, outcome, start, step, to_act)

GAME = "high-card"
TITLE = "High Card"
PREFIX = "HC"
MOVE_TYPES = frozenset({"play", "say"})
LOCATION = "tests.toy_game.spec:SPEC"

__all__ = ["GAME", "TITLE", "PREFIX", "MOVE_TYPES", "Setup", "State", "configure", "pack", "check_deck", "parse_card",
           "format_card", "parse_move", "format_move", "encode_event", "decode_event", "chance_of", "initial_state",
           "start", "decide", "step", "evolve", "legal_moves", "to_act", "outcome", "final", "move_of", "clause_of",
           "disclosed", "dump_state", "load_state", "register"]


@contextmanager
def register():
    """High Card in the registry for the duration of a `with`: the one registry line a game needs."""
    from domain.games import registered

    with registered(GAME, LOCATION) as spec:
        yield spec


def pack(setup=None) -> list[int]:
    """The 52-card pack the `deal` label shuffles."""
    return list(PACK)


def check_deck(setup, deck: list[int]) -> None:
    """A stacked deck is the whole pack, each card once (HC-1.2)."""
    if len(deck) != 52 or len(set(deck)) != 52:
        raise InvalidSetup("deck", "must hold each of the 52 cards exactly once (HC-1.2)")


def parse_move(raw: dict, n: int) -> dict:
    """A record move's own fields (seat and type checked already); raises MalformedMove."""
    move: dict = {"seat": raw["seat"], "type": raw["type"]}
    if raw["type"] == "say":
        if not isinstance(raw.get("text"), str):
            raise MalformedMove("text", "a say needs a text string")
        move["text"] = raw["text"]
        return move
    cards = raw.get("cards")
    if not isinstance(cards, list) or not 1 <= len(cards) <= 2:
        raise MalformedMove("cards", "a play names its card: a list of one card string")
    try:
        move["cards"] = [parse_card(c) for c in cards]
    except ValueError as e:
        raise MalformedMove("cards", str(e)) from None
    return move


def format_move(move: dict) -> dict:
    """The record form of a move: cards as strings."""
    return convert_cards(move, format_card, ("cards",))


def encode_event(e: dict) -> dict:
    """A domain event as stored (cards as strings)."""
    return convert_cards(e, format_card, ("order", "cards"))


def decode_event(e: dict) -> dict:
    """The inverse of encode_event."""
    return convert_cards(e, parse_card, ("order", "cards"))


def chance_of(event: dict) -> dict:
    """The random step an event fixed: the deal's order."""
    return {"deal": list(event["order"])} if event["type"] == "dealt" else {}


def move_of(event: dict) -> dict | None:
    """The player's move an event records, None for an automatic step."""
    if event["type"] == "played":
        return {"seat": event["seat"], "type": "play", "cards": list(event["cards"])}
    if event["type"] == "said":
        return {"seat": event["seat"], "type": "say", "text": event["text"]}
    return None


_CLAUSES = {"dealt": "HC-1.2", "played": "HC-2.2", "round_ended": "HC-2.3", "ended": "HC-3.1", "said": "HC-4.1"}


def clause_of(event: dict) -> str:
    """The rulebook clause that decided an event."""
    return _CLAUSES[event["type"]]


def disclosed(state: State, event: dict) -> tuple[dict[int, list[int]], list[int]]:
    """The deal shows each seat its hand; a play shows its card to everybody."""
    from .decider import hand_of

    if event["type"] == "dealt":
        return {seat: hand_of(event["order"], event["rounds"], seat) for seat in range(2)}, []
    if event["type"] == "played":
        return {}, list(event["cards"])
    return {}, []
