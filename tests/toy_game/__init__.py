"""High Card, the test suite's toy game (rulebook.md): a whole game in its own package, registered by one line
(`tests.toy_game.register`) and never in production. It proves that every generic part of arbiter takes a game
from its spec alone: the API, the pages, records, replay and verify, self-play and the balance report."""

from __future__ import annotations

from contextlib import contextmanager

from domain.kit.codec import card_list, event_codec, move_formatter, say_text
from domain.kit.moves import MoveShape, cards, say
from domain.rules import MalformedMove

from .decider import (Setup, State, configure, decide, dump_state, evolve, final, initial_state, legal_moves,
                      load_state, outcome, start, step, to_act)

GAME = "high-card"
MOVE_TYPES = frozenset({"play", "say"})
LOCATION = "tests.toy_game.spec:SPEC"
MOVES = (MoveShape("play", "play one card of the hand, shown to everybody", "HC-2.2",
                   (cards("the one card played", "HC-2.2"),)),
         say("HC-4.1"))


@contextmanager
def register():
    """High Card in the registry for the duration of a `with`: the one registry line a game needs."""
    from domain.games import registered

    with registered(GAME, LOCATION) as spec:
        yield spec


def parse_move(raw: dict, n: int) -> dict:
    """A record move's own fields (seat and type checked already); raises MalformedMove."""
    move: dict = {"seat": raw["seat"], "type": raw["type"]}
    if raw["type"] == "say":
        move["text"] = say_text(raw)
        return move
    cards = raw.get("cards")
    if not isinstance(cards, list) or not 1 <= len(cards) <= 2:
        raise MalformedMove("cards", "a play names its card: a list of one card string")
    move["cards"] = card_list(cards, "cards")
    return move


format_move = move_formatter()
encode_event, decode_event = event_codec(("order", "cards"))


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
