"""The one generic game aggregate: hosts any game's decider; its state is only ever the fold of its events.

Each domain event the decider produces (deal, draw, reshuffle, play, pass,
claim, elimination, win, ...) is stored as its own ``Game.Happened`` event,
with cards written as strings so the stored log reads like the table.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import Aggregate

from . import ENGINE_VERSION
from .cards import format_card, format_cards, parse_card, parse_cards
from .games import decider_for
from .randomness import Chance, commitment
from .records import Record, to_document

# Fields of domain events that hold cards: converted at this edge only.
_CARD_LISTS = ("cards", "order")


def encode_event(e: dict) -> dict:
    """A domain event with its cards as strings (JSON-safe, readable)."""
    out = dict(e)
    for key in _CARD_LISTS:
        if key in out:
            out[key] = format_cards(out[key])
    if "card" in out:
        out["card"] = format_card(out["card"])
    return out


def decode_event(e: dict) -> dict:
    """The inverse of encode_event."""
    out = dict(e)
    for key in _CARD_LISTS:
        if key in out:
            out[key] = parse_cards(out[key])
    if "card" in out:
        out["card"] = parse_card(out["card"])
    return out


def _encode_outcomes(outcomes: dict) -> dict:
    return {k: format_cards(v) if isinstance(v, list) else v for k, v in outcomes.items()}


def _decode_outcomes(outcomes: dict) -> dict:
    return {k: parse_cards(v) if isinstance(v, list) else v for k, v in outcomes.items()}


class Game(Aggregate):
    """A game of any registered kind, played through its decider."""

    class Created(Aggregate.Created):
        game: str
        options: dict
        players: list
        dealer: int | None
        starter: int | None
        seed: str
        commitment: str
        outcomes: dict
        stacked: bool
        engine_version: str

    class Happened(Aggregate.Event):
        """One domain event of the game (its `kind` is the decider's event type)."""

        kind: str
        data: dict

        def apply(self, game: "Game") -> None:
            if game.__dict__.get("_deciding"):
                return  # play() already holds the fold of these events (decider.step)
            game._fold(decode_event(self.data))

    def __init__(self, game: str, options: dict, players: list, dealer, starter, seed: str, commitment: str,
                 outcomes: dict, stacked: bool, engine_version: str):
        self.game = game
        self.options = dict(options)
        self.players = [dict(p) for p in players]
        self.dealer, self.starter = dealer, starter
        self.seed = seed
        self.commitment = commitment
        self.outcomes = dict(outcomes)
        self.stacked = stacked
        self.engine_version = engine_version
        self._decider = decider_for(game)
        self._setup = self._decider.configure(self.options, self.players, dealer, starter)
        self._chance = Chance(seed, _decode_outcomes(self.outcomes))
        self.state = self._decider.initial_state(self._setup)
        self.moves: list[dict] = []

    @classmethod
    def start(cls, record: Record) -> "Game":
        """Create a game from a validated set-up and play its opening (deal, first turn)."""
        setup = record.setup
        game = cls._create(
            cls.Created, game=record.game, options=setup.options(), players=setup.players(),
            dealer=setup.dealer, starter=setup.starter, seed=record.seed, commitment=commitment(record.seed),
            outcomes=_encode_outcomes(record.outcomes), stacked=record.stacked, engine_version=ENGINE_VERSION)
        game._record_events(game._decider.start(setup, game._chance))
        return game

    @property
    def decider(self):
        """The rules module this game is played under."""
        return self._decider

    def play(self, move: dict) -> list[dict]:
        """Apply one move (cards as ints): triggers one event per thing that happened; raises RuleViolation."""
        decider = self._decider
        events, state = decider.step(self.state, move, self._chance)
        self._deciding = True
        try:
            self._record_events(events)
        finally:
            del self._deciding
        self.state = state
        self.moves.append(decider.move_of(events[0]))
        return events

    def _record_events(self, events: list[dict]) -> None:
        trigger, happened = self.trigger_event, Game.Happened
        for e in events:
            trigger(happened, kind=e["type"], data=encode_event(e))

    def _fold(self, event: dict) -> None:
        self.state = self._decider.evolve(self.state, event)
        move = self._decider.move_of(event)
        if move is not None:
            self.moves.append(move)

    def to_record(self) -> dict:
        """The game as an `arbiter.record/1` document: replaying it gives this game's state."""
        return to_document(self.game, self._setup, self.seed, self._chance.outcomes, self.moves)

    def verdict_outcome(self):
        """How the game stands (an Outcome)."""
        return self._decider.outcome(self.state)
