"""The game catalogue's rows in the store and the desk's queries on them (the rows and their fold are
projections/catalogue.py; the table, its stores and its catch-up are the generic read model of
service.adapters.view_table, view_stores and view_runner).

Table ``game_catalogue5`` (tracking key ``<app>:game_catalogue5``): the first layout had an ``edition`` column for one
game's option, the second no dispute counts, the third no ``imported``, the fourth counted the seats' disputes but not
the clock's automatic flags (issue 35: the desk and `GET /games` said 0 open where the tournament page said 2); a new
name makes every store rebuild the catalogue from its events on first use, and leaves the old tables alone (the
verification verdicts of the fourth are carried over: ``Catalogue.carry_marks``). (Until issue 24 the tracking key was a fixed ``<app>:catalogue2``: a SQLite
store made before the third layout kept the second table's position for the new, empty table. Now the key follows
the table; on a store whose rows are already there the first catch-up folds the log once more and changes nothing,
the fold ignoring a Created event of a known game and any event not newer than its row.) Besides the public columns (projections.catalogue.COLUMNS) a row keeps
``seq``, the notification id of the game's Created event (list order), and ``names``, the players' names as a search
key; ``tampered`` and ``integrity`` are marks, written by ``Catalogue.mark`` only.

The referee's desk filters here, in SQL, never by loading games (``Query``): by game, status,
a player's name (``names``, a stored search key: each name case-folded between newlines), open
disputes and the latest verification's verdict (``tampered``); ``order="desk"`` lists games with
open disputes first, then the newest. A verification run records its verdict on the row
(``mark``): the catalogue never verifies anything itself, so the filter costs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from uuid import UUID

from projections.catalogue import COLUMNS, Row, fold_batch

from .view_runner import ViewRunner
from .view_table import Column, Stored, ViewTable

TABLE = "game_catalogue5"
PREVIOUS = "game_catalogue4"  # the layout before: its verification verdicts are carried over (Catalogue.catch_up)
STATUSES = ("in_progress", "finished")
ORDERS = ("created", "desk")
MAX_PLAYER_QUERY = 64


@dataclass(frozen=True)
class Query:
    """Which rows, in which order: every filter left None matches every row."""

    status: str | None = None
    game: str | None = None
    player: str | None = None  # part of a player's name, in any case
    open_disputes: bool | None = None  # True: a dispute awaits a ruling; False: none does
    tampered: bool | None = None  # True: the latest verification failed; False: it passed, or there was none
    order: str = "created"  # "created": creation order; "desk": open disputes first, then the newest

    def pattern(self) -> str | None:
        """The player filter as a LIKE pattern on `names` (backslash escapes)."""
        if self.player is None:
            return None
        text = self.player.casefold().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        return f"%{text}%"

    def matches(self, row: Row) -> bool:
        """Whether a stored row passes the filters (the memory store's test; the SQL stores say the same in SQL)."""
        return ((self.status is None or row["status"] == self.status) and (self.game is None or row["game"] == self.game)
                and (self.player is None or self.player.casefold() in row["names"])
                and (self.open_disputes is None or (row["open_disputes"] > 0) == self.open_disputes)
                and (self.tampered is None or bool(row.get("tampered")) == self.tampered))

    def sort(self, rows: list[Row]) -> list[Row]:
        """Rows in this query's order."""
        if self.order == "desk":
            return sorted(rows, key=lambda r: (r["open_disputes"] == 0, -r["seq"]))
        return sorted(rows, key=lambda r: r["seq"])

    def sql(self, mark: str) -> tuple[str, list]:
        """The WHERE and ORDER BY of this query (`mark`: the driver's placeholder) and its parameters."""
        where, params = [], []
        for column, value in (("status", self.status), ("game", self.game)):
            if value is not None:
                where.append(f"{column} = {mark}")
                params.append(value)
        if self.player is not None:
            where.append(f"names LIKE {mark} ESCAPE '\\'")
            params.append(self.pattern())
        if self.open_disputes is not None:
            where.append("open_disputes > 0" if self.open_disputes else "open_disputes = 0")
        if self.tampered is not None:
            where.append(f"tampered = {mark}")
            params.append(self.tampered)
        order = "(open_disputes > 0) DESC, seq DESC" if self.order == "desk" else "seq"
        return (" WHERE " + " AND ".join(where) if where else "") + f" ORDER BY {order}", params


def names_key(players: list) -> str:
    """The players' names as the player filter searches them: each case-folded, between newlines."""
    return "\n" + "\n".join(str(p.get("name", "")).casefold() for p in players) + "\n"


def _public(row: Row) -> dict:
    """A row as callers see it (every store hands out rows of its own: no copy needed)."""
    return {**{k: row[k] for k in COLUMNS}, "integrity": row.get("integrity")}


def _marks(integrity: dict) -> dict:
    return {"tampered": not integrity["ok"], "integrity": integrity}


def _stored(key: str, row: Row) -> Stored:
    return {**{c.name: row[c.name] for c in CATALOGUE.columns if c.name != "names"}, "names": names_key(row["players"])}


CATALOGUE = ViewTable(
    table=TABLE,
    columns=(Column("id", "text"), Column("seq", "int", unique=True), Column("game", "text"),
             Column("options", "json"), Column("players", "json"), Column("status", "text"),
             Column("result", "text", null=True), Column("winner", "json", null=True),
             Column("scores", "json", null=True), Column("created_at", "text"),
             Column("finished_at", "text", null=True), Column("version", "int"), Column("chain_head", "text"),
             Column("stacked", "bool"), Column("imported", "bool"), Column("disputes", "int"), Column("open_disputes", "int"),
             Column("names", "text")),
    marks=(Column("tampered", "bool", default=False), Column("integrity", "json", null=True)),
    indexes=(("status_idx", "status, seq"), ("game_idx", "game, seq")),
    fold=fold_batch, to_stored=_stored, from_stored=dict)


class _Marked:
    """The rows a verification run marked (a verdict is kept: `integrity` is set)."""

    def sql(self, mark: str) -> tuple[str, list]:
        return " WHERE integrity IS NOT NULL", []

    def matches(self, stored: Row) -> bool:
        return stored.get("integrity") is not None

    def sort(self, rows: list[Row]) -> list[Row]:
        return rows


class Catalogue(ViewRunner):
    """The game catalogue of one application: `catch_up()` pulls new notifications; `list`/`get` read rows."""

    SPEC = CATALOGUE
    _carried = False  # whether this object has looked for the previous layout's verdicts

    def catch_up(self, limit: int | None = None) -> int:
        """ViewRunner.catch_up; the first complete one of this object also carries the verification verdicts of the
        previous layout's table over (`carry_marks`)."""
        applied = super().catch_up(limit)
        if not self._carried and limit is None:
            self._carried = True
            self.carry_marks()
        return applied

    def carry_marks(self, previous: str = PREVIOUS) -> int:
        """Keep on this table's rows the verdicts the previous layout's table holds (its rows are left alone), for the
        rows that have none yet, once: a table that already holds a verdict is taken as carried (one read of a row).
        A store rebuilt in a new table would otherwise show every game "not verified yet", and lose the "tampered"
        a verification found, until the next `arbiter verify --all`. Returns how many rows it marked."""
        if self.spec.table != TABLE or self.view.select(_Marked(), 1, 0):
            return 0
        old = self.view.marks_in(previous, "integrity IS NOT NULL")
        if not old:
            return 0
        rows = self.view.get_many(list(old))
        marks = [(key, {"tampered": bool(m["tampered"]), "integrity": m["integrity"]}) for key, m in old.items()
                 if key in rows and rows[key].get("integrity") is None]
        if marks:
            self.view.update_many(marks)
        return len(marks)

    def get(self, game_id: UUID | str) -> dict | None:
        """The row of one game, or None (unknown id, or not caught up yet)."""
        try:
            key = str(UUID(str(game_id)))
        except ValueError:
            return None
        row = self.view.get(key)
        return None if row is None else _public(row)

    def list(self, status: str | None = None, game: str | None = None, limit: int = 100, offset: int = 0,
             player: str | None = None, open_disputes: bool | None = None, tampered: bool | None = None,
             order: str = "created") -> list[dict]:
        """Rows in the order the games were created (`order="desk"`: open disputes first, then the newest),
        optionally only one status, game, player (part of a name, any case), with or without open disputes,
        tampered or not (as the latest verification found)."""
        if status is not None and status not in STATUSES:
            raise ValueError(f"status: expected one of {', '.join(STATUSES)}")
        for name, value in (("limit", limit), ("offset", offset)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name}: must be an integer of at least 0")
        if order not in ORDERS:
            raise ValueError(f"order: expected one of {', '.join(ORDERS)}")
        if player is not None and (not isinstance(player, str) or not 1 <= len(player) <= MAX_PLAYER_QUERY
                                   or "\n" in player or "\x00" in player):
            raise ValueError(f"player: must be 1 to {MAX_PLAYER_QUERY} characters on one line")
        for name, value in (("open_disputes", open_disputes), ("tampered", tampered)):
            if value is not None and not isinstance(value, bool):
                raise ValueError(f"{name}: must be true or false")
        query = Query(status=status, game=game, player=player, open_disputes=open_disputes, tampered=tampered, order=order)
        return [_public(row) for row in self.view.select(query, limit, offset)]

    def mark(self, game_id: UUID | str, integrity: dict) -> bool:
        """Keep what a verification run found (`integrity_of`) on the game's row; False when it has no row yet."""
        try:
            key = str(UUID(str(game_id)))
        except ValueError:
            return False
        return self.view.update(key, _marks(integrity))

    def get_many(self, game_ids: Sequence[UUID | str]) -> dict[str, dict]:
        """`get` for several games at once (one query): their rows by id as text; a game with no row is left out."""
        keys = []
        for game_id in game_ids:
            try:
                keys.append(str(UUID(str(game_id))))
            except ValueError:
                continue
        return {key: _public(row) for key, row in self.view.get_many(keys).items()}

    def mark_many(self, marks: Sequence[tuple[UUID | str, dict]]) -> None:
        """`mark` for many games (game id, integrity) at once: one transaction (a game with no row is left alone)."""
        keyed = []
        for game_id, integrity in marks:
            try:
                keyed.append((str(UUID(str(game_id))), integrity))
            except ValueError:
                continue
        if keyed:
            self.view.update_many([(key, _marks(integrity)) for key, integrity in keyed])
