"""What the lobby, the desk and a health check read: the game catalogue (a read model kept in the store, caught up
before each read), the games this server referees, and its health."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain import ENGINE_VERSION
from domain.audit import event_hash
from domain.games import DECIDERS, SPECS

from service.adapters.catalogue_store import Catalogue
from service.bounds import position
from service.errors import BadInput
from service.store.application import Store

from .desk_rows import DeskRows
from .facade import ViewsFacade


class LobbyFacade:
    """The catalogue of a store's games, and what the server offers."""

    def __init__(self, app: Store, views: ViewsFacade):
        self.app = app
        self.views = views
        self._catalogue: Catalogue | None = None
        self._desk = DeskRows(app, views)

    def catalogue(self, status: str | None = None, game: str | None = None, limit: int = 50, offset: int = 0,
                  **desk: Any) -> list[dict]:
        """The game catalogue (a read model in the database), caught up first; `desk` takes the referee's desk's
        filters and order (player, open_disputes, tampered, order: service.adapters.catalogue_store.Catalogue.list)."""
        position(offset, "offset")
        try:
            rows = self.caught_up().list(status=status, game=game, limit=limit, offset=offset, **desk)
        except ValueError as e:
            raise BadInput(str(e), field=str(e).split(":", 1)[0]) from None
        for row in rows:  # a delayed game's position is shown as its spectators see it
            cut = self.views.spectator_cut(UUID(row["id"])) if row["status"] == "in_progress" else None
            if cut is not None:
                row["version"], row["chain_head"] = cut.version, event_hash(cut.events[-1])
        return rows

    def at_the_desk(self, rows: list[dict]) -> list[dict]:
        """Catalogue rows as the desk shows them: each with its tournament table (`tournament`: id, name, round,
        table, or None) and, in progress, who is to act with their time left (`acting`: service.views.desk_rows)."""
        return self._desk.add_to(rows)

    def caught_up(self) -> Catalogue:
        """The catalogue of this store (opened once), caught up with the store's notification log."""
        if self._catalogue is None:
            self._catalogue = Catalogue.for_app(self.app)
        self._catalogue.catch_up()
        return self._catalogue

    def games(self) -> list[dict]:
        """The games arbiter referees, as their specs declare them (domain.spec.GameSpec.as_json: id, title,
        players, options), in registry order."""
        return [spec.as_json() for spec in SPECS.values()]

    def health(self) -> dict:
        """Liveness: {"status": "ok", "engine_version", "games"}."""
        return health_report()


def health_report() -> dict:
    """What GET /api/v1/health says, store or no store: {"status": "ok", "engine_version", "games"}."""
    return {"status": "ok", "engine_version": ENGINE_VERSION, "games": sorted(DECIDERS)}
