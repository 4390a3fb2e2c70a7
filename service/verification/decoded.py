"""What a row decoder gives the checks: a stored game's rows decoded, each with its chain hash, and every damage found.

Two decoders give it, through one call, `decode(app, game_id, rows) -> DecodedGame`:

- service.verification.plain_rows.PlainDecoder, the fast one, for the common game whose rows are plain (its module
  says which); for any other game it raises NotPlain;
- service.verification.stored_rows.DetailedDecoder, which decodes every row with the library's mapper, folds the
  game and names any damage at its version.

The checks (service.verification.driver) read a DecodedGame the same way whichever decoder made it. Where the plain
decoder vouches for a fact as it decodes (`plain`: every link of the chain followed, only Created, Happened and
SeedRevealed rows at versions 1..n, no damage), a check takes the fact instead of finding it again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol
from uuid import UUID

from domain.game import Game


class NotPlain(Exception):
    """The plain decoder does not take this game (or a check found what it does not vouch for): the detailed decoder
    takes it."""


@dataclass(frozen=True)
class Damage:
    """What is wrong with a stored row, and at which version (None where no version applies)."""

    version: int | None
    problem: str

    def as_dict(self) -> dict:
        """Simple types for the API and CLI."""
        return {"version": self.version, "problem": self.problem}


class DecodedRow(NamedTuple):
    """One stored event row decoded: its version, its event class (`kind`), its fields and, where the decoder computed
    it, its chain hash. `event` is the event object: the one the decoder made (`made`), else `build(kind, fields,
    game_id)` makes it when a check asks (the plain decoder builds few). A tuple: a game holds thousands of rows."""

    version: int
    kind: type
    fields: dict
    hash: str | None = None
    made: Any = None
    build: Any = None
    game_id: Any = None

    @property
    def originator_version(self) -> int:
        return self[0]

    @property
    def prev(self) -> Any:
        return self[2].get("prev")

    @property
    def event(self) -> Any:
        made = self[4]
        return made if made is not None else self[5](self[1], self[2], self[6])


@dataclass
class DecodedGame:
    """A game's rows decoded up to the first one that does not decode, and every damage found."""

    rows: list[DecodedRow] = field(default_factory=list)
    damage: list[Damage] = field(default_factory=list)
    unreadable: Damage | None = None  # the first row that does not decode at all: reading stopped there
    aggregate: Any = None  # the fold of the rows up to the first event that cannot be applied (None if not folded)
    folded_to: int = 0  # the version `aggregate` is at
    hashes: list = field(default_factory=list)  # the chain hash of the first rows (every row's, for a plain game)
    plain: bool = False  # made by the plain decoder: every row decodes, the chain holds, no damage
    first_reveal: int | None = None  # the index in `rows` of the first SeedRevealed row, None for none
    snapshots: dict = field(default_factory=dict)  # a plain game's snapshots by version, for the pass to compare

    @classmethod
    def of_events(cls, events: list) -> "DecodedGame":
        """Events already loaded, as decoded rows."""
        rows = [DecodedRow(e.originator_version, type(e), e.__dict__, None, e) for e in events]
        first = next((i for i, row in enumerate(rows) if row.kind is Game.SeedRevealed), None)
        return cls(rows=rows, first_reveal=first)

    @property
    def revealed_seed(self) -> str | None:
        """The seed the first SeedRevealed row reveals, None while there is none."""
        return None if self.first_reveal is None else self.rows[self.first_reveal].event.seed

    @property
    def events(self) -> list:
        """The rows' event objects, in order."""
        return [row.event for row in self.rows]

    @property
    def created(self) -> Any:
        """The game's Created event, None when the first row is something else (or there is none)."""
        return self.rows[0].event if self.rows and self.rows[0].kind is Game.Created else None


class RowDecoder(Protocol):
    """A way of decoding a stored game's rows (`rows`: service.verification.bulk.GameRows read in bulk, or None to
    read them from the store)."""

    def decode(self, app: Any, game_id: UUID, rows: Any = None) -> DecodedGame: ...
