"""A game's decoded rows folded into the aggregate, and each stored snapshot held against the fold at its version.

The fold stops before a damaged row or a gap in the versions (the hash chain names those), and at the first event
that cannot be applied to the game before it (named here). A snapshot that does not decode, differs from the game
folded to its version, or lies beyond the last event is damage at its version. The detailed decoder folds every game
this way (service.verification.stored_rows); a plain game's snapshots are held against the game on the checks' pass
instead (service.verification.snapshot_line), without the fold's cost.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import Snapshot
from eventsourcing.utils import get_topic

from domain.game import Game

from .decoded import Damage, DecodedGame
from .row_shapes import why_undecodable


def fold_game(decoded: DecodedGame, snapshots: dict[int, Any], unreadable_snapshot: Damage | None) -> None:
    """Fold `decoded`'s rows into the game (its aggregate, folded_to, hashes), adding to its damage every event that
    cannot be applied and every snapshot (`snapshots`: by version, as read_snapshots gives them) that is not the game."""
    shape_damaged = {d.version for d in decoded.damage}
    snapshots = dict(snapshots)
    game = None
    for row in decoded.rows:
        version = row.version
        if version in shape_damaged or version != (game.version + 1 if game else 1):
            break  # a damaged row, or a gap (the hash chain names it): the fold stops before it
        try:
            game = row.event.mutate(game)
        except Exception as e:  # the decider cannot read the event's data, or the fold refuses it
            decoded.damage.append(Damage(version, f"stored event {version} cannot be applied "
                                                  f"to the game before it ({type(e).__name__})"))
            break
        decoded.aggregate, decoded.folded_to = game, version
        decoded.hashes.append(game.chain_head)
        snapshot = snapshots.pop(version, None)
        if snapshot is not None:
            damage = snapshot_damage(snapshot, game)
            if damage:
                decoded.damage.append(damage)
    if unreadable_snapshot:
        decoded.damage.append(unreadable_snapshot)
    elif snapshots and decoded.folded_to == len(decoded.rows) and not decoded.unreadable:
        version = min(snapshots)
        decoded.damage.append(Damage(version, f"the snapshot at version {version} is beyond the game's last event"))


def read_snapshots(app: Any, game_id: UUID, rows: list | None = None) -> tuple[dict[int, Any], Damage | None]:
    """A game's stored snapshots by version, and the first one that does not decode (if any) (`rows`: the snapshot
    rows read in bulk already, else they are read here)."""
    if app.snapshots is None:
        return {}, None
    topic, game_topic = get_topic(Snapshot), get_topic(Game)
    out = {}
    for row in app.snapshots.recorder.select_events(game_id) if rows is None else rows:
        version = row.originator_version
        try:
            if row.topic != topic:
                raise TypeError("not a snapshot")
            snapshot = app.mapper.to_domain_event(row)
            if snapshot.topic != game_topic or not isinstance(snapshot.state, dict):
                raise TypeError("not a game's snapshot")
        except Exception as e:
            return out, Damage(version, f"the snapshot at version {version} cannot be read: {why_undecodable(e)}")
        out[version] = snapshot
    return out, None


def settled_fields(game: Any) -> dict:
    """A game's public fields with the clock of its last batch of events settled (Game.clock_now): a snapshot the
    service takes from the game it just saved holds the settled clock, a fold of the events up to the same version
    the unsettled one, and both are the same game."""
    fields = {k: v for k, v in vars(game).items() if not k.startswith("_")}
    if "clock" in fields:
        fields["clock"] = game.clock_now()
    return fields


def snapshot_damage(snapshot: Any, game: Any) -> Damage | None:
    """Whether a stored snapshot is the game folded to its version (None) or not (the damage)."""
    version = snapshot.originator_version
    try:
        taken = snapshot.mutate(None)
    except Exception as e:
        return Damage(version, f"the snapshot at version {version} cannot be read ({type(e).__name__})")
    if settled_fields(game) != settled_fields(taken):
        return Damage(version, f"the snapshot at version {version} differs from the events it summarises")
    return None
