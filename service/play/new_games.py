"""The commands that make a game come to be: `CreateGame` (from a creation spec) and `ImportRecord` (from a whole
record), each one frozen object, built and checked once where the request arrived.

Every road builds them with `from_body`: the JSON API from the request body (POST /games, POST /records), the pages
from the lobby's form and an uploaded file, a tournament from its round's draw, the command line's import from each
file, the tests and benches from their specs. `from_body` checks everything a game's set-up can be told from the
request alone, once: the record's shape through the record loader (domain.records.parse: game, options, players,
seed, deck, dealer, starter, outcomes, and for an import every move's own fields through the game's codec), the
spectator delay and the time control. What it holds is typed (a validated `Record`, plain dicts that were checked),
so the Referee stores it without looking again; what only the store can answer (the tokens, the seed drawn, the
moves' legality) is decided there.

Neither holds a token: creating a game needs none, and its answer gives them out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.records import FORMAT, InvalidRecord, Record, parse

from service.errors import BadInput
from service.views.spectator_delay import parse_delay

from .clocks import parse_time_control

SETUP_KEYS = ("game", "options", "players", "seed", "deck", "dealer", "starter", "outcomes")


def validated_record(doc: Any) -> Record:
    """A record document read by the record loader; raises BadInput naming the field (as POST /records answers)."""
    try:
        return parse(doc)
    except InvalidRecord as e:
        field = str(e).split(":", 1)[0] if ":" in str(e) else None
        raise BadInput(str(e), field=field) from None


@dataclass(frozen=True)
class CreateGame:
    """A new game: its set-up as a record without moves, the spectator delay ({"moves": N} or {"seconds": S}, or
    None) and the time control (docs/clocks.md, or None)."""

    record: Record
    spectator_delay: dict | None = None
    time_control: dict | None = None

    @classmethod
    def from_body(cls, spec: Any) -> "CreateGame":
        """The game a creation spec stands for ({game, options, players, seed?, deck?, dealer?, starter?, outcomes?,
        spectator_delay?, time_control?}; a key given as null is left out); raises BadInput naming the field."""
        if not isinstance(spec, dict):
            raise BadInput("a game is created from an object with game, options and players")
        doc = {"format": FORMAT, "moves": []}
        doc.update({key: spec[key] for key in SETUP_KEYS if spec.get(key) is not None})
        delay = parse_delay(spec.get("spectator_delay"))
        control = parse_time_control(spec.get("time_control"))
        return cls(validated_record(doc), delay, control)


@dataclass(frozen=True)
class ImportRecord:
    """A whole recorded game (arbiter.record/1), read and checked: the Referee replays its moves into a new game and
    stops at the first illegal one."""

    record: Record

    @classmethod
    def from_body(cls, doc: Any) -> "ImportRecord":
        """The record a document stands for; raises BadInput naming the field (an invalid record is not imported)."""
        return cls(validated_record(doc))
