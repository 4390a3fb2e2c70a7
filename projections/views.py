"""A game as one viewer may see it, for any game: common fields plus that game's table (contract §3).

The front door of the read side: `view`, `view_at`, and (re-exported) `event_log`,
`disclosure_ledger`, `who_could_see`. Pure functions of a `Game` aggregate or its stored
events; the game's own table comes from its plug-in (projections.registry).

A view::

    {"id", "game", "options", "players": [{"seat", "name", "team"}], "viewer": {"role", "seat"},
     "version", "chain_head", "commitment", "stacked", "seed"? (only once revealed),
     "status": "in_progress" | "finished", "result", "winner", "engine_version",
     "disputes": [{"number", "seat", "version", "claim", "filed_at", "ruling", "kind", "automatic", "attempt"?,
                   "time_expired"?}],   (kind: move, refusal or clock, domain.disputes; automatic: the clock's flag)
     "rewinds": [{"dispute", "to_version", "from_version", "at"}], "table": {...}}

Token hashes never appear; the seed only once the game has revealed it.
"""

from __future__ import annotations

import copy
from typing import Any

from domain.disputes import described
from domain.game import Game
from domain.games import spec_for

from .clocks import clock_view
from .event_log import event_log
from .ledger import disclosure_ledger, who_could_see
from .registry import projection_for
from .viewers import Viewer

__all__ = ["view", "view_at", "event_log", "disclosure_ledger", "who_could_see"]


def view(game: Game, viewer: Viewer, disclose_all: bool = False, withheld: bool = False) -> dict:
    """What `viewer` may see of `game` now; the whole table once the game ended (or with disclose_all), unless the
    end is `withheld` from this viewer (service.access.Access.end_shown): then the table as in play, and no seed."""
    outcome = game.outcome
    disclose_all = not withheld and (disclose_all or game.seed_revealed or outcome.is_over)
    out = {
        "id": str(game.id),
        "game": game.game,
        "title": spec_for(game.game).title,
        "options": dict(game.options),
        "players": [{"seat": seat, "name": p["name"], "team": p.get("team")} for seat, p in enumerate(game.players)],
        "viewer": viewer.as_dict(),
        "version": game.version,
        "chain_head": game.chain_head,
        "commitment": game.commitment,
        "stacked": game.stacked,
        "status": "finished" if outcome.is_over else "in_progress",
        "result": outcome.result,
        "winner": outcome.winner_json(),
        "engine_version": game.engine_version,
        "disputes": [described(d) for d in game.disputes],
        "rewinds": copy.deepcopy(game.rewinds),
        "table": projection_for(game.game).table(game.state, viewer, disclose_all),
        "clock": clock_view(game),
    }
    out["spectator_delay"] = dict(game.spectator_delay) if game.spectator_delay else None
    if game.seed_revealed and not withheld:
        out["seed"] = game.seed
    return out


def view_at(app: Any, game_id: Any, version: int, viewer: Viewer, withheld: bool = False) -> dict:
    """The view of `viewer` as at `version` (what it could see then); raises NotFound for a version the game lacks.

    Once the game has ended, the whole game is public, so a replay of a finished game shows
    every table in full (unless its end is `withheld` from this viewer: then what it could see then).
    """
    earlier = app.game(game_id, version)
    return view(earlier, viewer, disclose_all=not withheld and app.game(game_id).seed_revealed, withheld=withheld)
