"""The snapshot check of a plain game, on the re-decision pass: each stored snapshot held against the game as the
aggregate would hold it at the snapshot's version, without folding the aggregate.

The detailed decoder checks snapshots by folding every event into the aggregate (service.verification.fold): for a
plain game that fold (the aggregate's bookkeeping and a second chain hash of every event) cost more than the rest
of the game's verification together. So for a plain game read by the plain decoder, `SnapshotLine` follows the
re-decision (service.verification.redecision) and keeps what the aggregate keeps beside the decider's state — the
move log, the answers to idempotency keys, the outcomes of chance, the clocks, the position's version — from the
decoded rows, and compares each snapshot's fields (fold.settled_fields) with them at its version. This is a second
implementation of what a snapshot holds, for plain games only (Created, Happened and SeedRevealed events; no
disputes, rewinds or names): a snapshot that differs, or one at a version the pass never meets, raises NotPlain and
the detailed decoder folds the game and names it. tests/unit/test_verify_decoders_agree.py and
tests/integration/test_snapshot_clock.py hold the two to the same answer.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from domain import clocks
from domain.game import ENGINE
from domain.move_log import pack_move

from .decoded import NotPlain
from .fold import settled_fields


class SnapshotLine:
    """Follows the re-decision of a plain game, holding each snapshot (`snapshots`: by version) against the game."""

    def __init__(self, created: Any, decider: Any, hashes: list, snapshots: dict):
        self.created, self.d, self.hashes, self.snapshots = created, decider, hashes, dict(snapshots)
        self.move_log: list[str] = []
        self.answers: dict = {}
        self.chance_results: dict = {}
        self.seed_revealed = False
        self.position_version = 1  # Game.position_version: the Created event, then each event that moves the position
        self.clock = clocks.initial(len(created.players), clocks.start_of(getattr(created, "time_control", None))
                                    == "first_move")  # settled after the last decision (domain.clocks)
        self.batch: tuple | None = None  # (at_ms, version, mover, say) of the decision being met, as Game folds it

    def decided(self, number: int, decision: Any, decided: list | None, error: Exception | None, chance: Any,
                before: Any, after: Any) -> None:
        """One decision of the pass: its events met one by one from the state `before` it."""
        move, happened, reveals = decision
        if not happened or move.__class__ is not dict and move is not None:
            raise NotPlain
        d, created, state = self.d, self.created, before
        first = happened[0][0].fields
        self.batch = (clocks.ms(datetime.fromisoformat(first["timestamp"])), first["originator_version"],
                      None if move is None else move["seat"], bool(move and move["type"] == "say"))
        for row, event in happened:
            fields, version = row.fields, row.version
            state = d.evolve(state, event)
            if fields["actor"] == ENGINE or move is None or move["type"] != "say":
                self.position_version = version
            for label, value in d.chance_of(event).items():
                if (label == "dealer" and created.dealer is not None) or (label == "starter" and created.starter is not None):
                    continue
                self.chance_results[label] = value
            if fields["actor"] != ENGINE:
                noted = d.move_of(event)
                if noted is not None:
                    self._log(noted, version)
                    if fields["idempotency_key"]:
                        self.answers[fields["idempotency_key"]] = {"version": version, "rejected": False,
                                                                   "actor": fields["actor"]}
            self._check(version, state)
        self.clock = self._settled(state)
        self.batch = None
        for row in reveals:
            self.seed_revealed = True
            self.position_version = row.version
            self._check(row.version, state)

    def finish(self) -> None:
        """NotPlain if a snapshot lies at a version the pass never met."""
        if self.snapshots:
            raise NotPlain

    def _log(self, move: dict, version: int) -> None:
        line = pack_move(move, version)
        if self.move_log and self.move_log[-1].count("\n") < 99:
            self.move_log[-1] += "\n" + line
        else:
            self.move_log.append(line)

    def _settled(self, state: Any) -> dict:
        """The clock with the decision being met settled at `state` (Game.clock_now at that version)."""
        if self.batch is None:
            return self.clock
        return clocks.settled(self.clock, self.d, state, self.batch)

    def _check(self, version: int, state: Any) -> None:
        snapshot = self.snapshots.pop(version, None)
        if snapshot is None:
            return
        c = self.created
        mine = {"game": c.game, "options": dict(c.options), "players": [dict(p) for p in c.players], "dealer": c.dealer,
                "starter": c.starter, "seed": c.seed, "seed_given": c.seed_given, "commitment": c.commitment,
                "outcomes": {k: list(v) if isinstance(v, list) else v for k, v in c.outcomes.items()},
                "stacked": c.stacked, "engine_version": c.engine_version, "seat_token_hashes": list(c.seat_token_hashes),
                "referee_token_hash": c.referee_token_hash, "state": state, "move_log": list(self.move_log),
                "answers": self.answers, "seed_revealed": self.seed_revealed, "disputes": [], "rewinds": [],
                "chain_head": self.hashes[version - 1], "chance_results": self.chance_results,
                "spectator_delay": dict(c.spectator_delay) if getattr(c, "spectator_delay", None) else None,
                "time_control": dict(c.time_control) if getattr(c, "time_control", None) else None,
                "clock": self._settled(state), "position_version": self.position_version}
        if settled_fields(snapshot.mutate(None)) != mine:
            raise NotPlain
