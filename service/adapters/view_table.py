"""What a materialised read model declares about its table: its columns, key, indexes, fold and how a row is stored.

One declaration per read model (service.adapters.catalogue_store.CATALOGUE, service.adapters.standings_store.STANDINGS);
the stores (service.adapters.view_stores: memory, SQLite, PostgreSQL) build their table from it, and the runner
(service.adapters.view_runner.ViewRunner) pulls the notification log through its fold. Nothing here knows a game or a
read model by name.

Column kinds and what each store keeps them as:

    kind   SQLite    PostgreSQL   memory (and what every store gives back)
    text   TEXT      text         str
    int    INTEGER   bigint       int
    bool   INTEGER   boolean      bool
    json   TEXT      jsonb        the decoded value (dict, list, ...)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Row = Any  # what a fold keeps under a key: the read model's own shape
Stored = dict[str, Any]  # one row of the table: column name -> value (of the column's kind)
# fold(batch of (notification id, event or None), load(key) -> row | None, before_each(notification id)) -> changed rows
Fold = Callable[[Sequence[tuple[int, Any]], Callable[[str], Row | None], Callable[[int], None]], dict[str, Row]]
KINDS = ("text", "int", "bool", "json")


@dataclass(frozen=True)
class Column:
    """One column: NOT NULL unless `null`; `unique` adds a unique index; `default` (marks only) fills new rows."""

    name: str
    kind: str
    null: bool = False
    unique: bool = False
    default: Any = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"column {self.name}: kind {self.kind!r} is not one of {', '.join(KINDS)}")


@dataclass(frozen=True)
class ViewTable:
    """A read model's table and fold.

    `columns` are written by the fold (each changed row is upserted whole, the key first); `marks` are written only
    through ``ViewStore.update`` (a verdict kept on a row) and keep their value when the fold rewrites the row.
    `indexes` are (name suffix, "column, column"). `to_stored(key, row)` gives the fold's row as column values,
    `from_stored(values)` the row back (marks included). `topics` narrows the notifications pulled (empty: all).
    The tracking key is ``<application name>:<table>``: a new table name starts from the first notification.
    The fold must not change a row that `load` gave it (the memory store lends its own): it returns new ones.
    """

    table: str
    columns: tuple[Column, ...]
    fold: Fold
    to_stored: Callable[[str, Row], Stored]
    from_stored: Callable[[Stored], Row]
    marks: tuple[Column, ...] = ()
    indexes: tuple[tuple[str, str], ...] = ()
    topics: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """The primary key column (the first)."""
        return self.columns[0].name

    @property
    def all_columns(self) -> tuple[Column, ...]:
        """What a read returns: the fold's columns, then the marks."""
        return self.columns + self.marks


class Where(Protocol):
    """Which rows a read selects and in which order, said once for SQL and once for the memory store."""

    def sql(self, mark: str) -> tuple[str, list]:
        """` WHERE ... ORDER BY ...` with `mark` as the driver's placeholder, and its parameters."""

    def matches(self, stored: Stored) -> bool:
        """Whether a stored row (column values) passes."""

    def sort(self, rows: list[Stored]) -> list[Stored]:
        """Stored rows in this order."""
