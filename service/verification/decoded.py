"""What a row decoder gives the checks: a stored game's rows decoded, each with its chain hash, and every damage found.

Two decoders give it, through one call, `decode(app, game_id, rows) -> DecodedGame`:

- service.verification.plain_rows.PlainDecoder, the fast one, for the common game whose rows are plain (its module
  says which); for any other game it raises NotPlain;
- service.verification.stored_rows.DetailedDecoder, which decodes every row with the library's mapper, folds the
  game and names any damage at its version.

The checks (service.verification.driver) read a DecodedGame and never ask which decoder made it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol
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


class DecodedRow:
    """One stored event row decoded: its version, its event class (`kind`), its fields and, where the decoder computed
    it, its chain hash. `event` is the event object (the plain decoder builds it only when a check asks)."""

    __slots__ = ("version", "kind", "fields", "hash", "_event", "_build")

    def __init__(self, version: int, kind: type, fields: dict, hash: str | None = None, event: Any = None,
                 build: Callable[[], Any] | None = None):
        self.version, self.kind, self.fields, self.hash = version, kind, fields, hash
        self._event, self._build = event, build

    @property
    def originator_version(self) -> int:
        return self.version

    @property
    def prev(self) -> Any:
        return self.fields.get("prev")

    def field(self, name: str) -> Any:
        """A field as the event object would give it (AttributeError when the row lacks it)."""
        try:
            return self.fields[name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def event(self) -> Any:
        if self._event is None:
            self._event = self._build()
        return self._event


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
