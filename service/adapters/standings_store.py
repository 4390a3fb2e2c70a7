"""Tournament standings in the store: the documents of projections/standings.py in one table of the generic read
model (service.adapters.view_table, view_stores, view_runner), pulled from the tournament and game-end topics of the
application's notification log like the catalogue's rows.

Table ``tournament_standings`` (``key``, ``seq``, ``doc``; tracking key ``<app>:tournament_standings``): SQLite in the
events' file, PostgreSQL with ``tournament_standings_tracking`` beside it, memory a dict per application object.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.utils import get_topic

from domain.game import Game
from domain.tournament.aggregate import Tournament
from projections.standings import Doc, fold_batch

from .view_runner import ViewRunner, fold_log
from .view_table import Column, Stored, ViewTable

TABLE = "tournament_standings"
TOPICS = tuple(get_topic(c) for c in (Tournament.Created, Tournament.PlayerEntered, Tournament.RoundStarted,
                                      Tournament.GameStarted, Tournament.Finished, Tournament.BoardReleased, Tournament.PairingsReviewed,
                                      Tournament.RoundRepaired, Tournament.Edited, Tournament.Deleted,
                                      Game.SeedRevealed,
                                      Game.Rewound))


class Tournaments:
    """The rows that are tournaments' documents (keys ``t:<id>``), in the order the tournaments were created."""

    def sql(self, mark: str) -> tuple[str, list]:
        return f" WHERE key LIKE {mark} ORDER BY seq", ["t:%"]

    def matches(self, stored: Stored) -> bool:
        return stored["key"].startswith("t:")

    def sort(self, rows: list[Stored]) -> list[Stored]:
        return sorted(rows, key=lambda r: r["seq"])


STANDINGS = ViewTable(
    table=TABLE, columns=(Column("key", "text"), Column("seq", "int"), Column("doc", "json")), fold=fold_batch,
    to_stored=lambda key, doc: {"key": key, "seq": doc.get("seq", 0), "doc": doc},
    from_stored=lambda stored: stored["doc"], topics=TOPICS)


def fold_all(app: Any) -> dict[str, Doc]:
    """Every row, folded from the whole notification log in memory (the reference a materialised view must equal)."""
    return fold_log(app, STANDINGS)


class Standings(ViewRunner):
    """The standings of one application: `catch_up()` pulls new notifications; `get`/`tournaments` read documents."""

    SPEC = STANDINGS

    def get(self, tournament_id: str) -> Doc | None:
        """A tournament's document (None: unknown, or not caught up yet)."""
        return self.view.get(f"t:{tournament_id}")

    def tournament_of(self, game_id: Any) -> str | None:
        """The id of the tournament a game was started by (None: not a tournament's game)."""
        link = self.view.get(f"g:{game_id}")
        return None if link is None else link["tournament"]

    def tournaments(self) -> list[Doc]:
        """Every tournament's document, in creation order."""
        return self.view.select(Tournaments())
