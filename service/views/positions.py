"""Every version's view of a game for one viewer, folded once (the replay viewer's positions, projections.positions).

`ViewsFacade.replay(game, token, version)` rebuilds the game up to `version` for each call: stepping through a
5,000-event game that way costs a fold per step. `views_by_version` folds the stored events once and takes the view
after each one, with exactly the arguments `projections.views.view_at` gives `view` (the same viewer, `withheld` and
`disclose_all`), so each is the view the replay gives that viewer at that version (tests/unit/test_positions.py
holds them equal).
"""

from __future__ import annotations

from typing import Any, Iterator
from uuid import UUID

from projections.viewers import Viewer
from projections.views import view


def views_by_version(app: Any, gid: UUID, viewer: Viewer, withheld: bool, upto: int | None = None) -> Iterator[dict]:
    """The view of `viewer` at every version from 1 to `upto` (default: the latest), in order, as the replay shows it:
    the whole table once the game has ended (its seed revealed), unless the end is `withheld` from this viewer."""
    disclose_all = not withheld and app.game(gid).seed_revealed
    game = None
    for event in app.read_events(gid, lte=upto):
        game = event.mutate(game)
        yield view(game, viewer, disclose_all=disclose_all, withheld=withheld)
