"""The engine check: would the current engine decide the stored game as it stands?

For a plain game (service.verification.plain_rows) the answer comes from the re-decision pass
(service.verification.redecision) that the deal check rides too: `EngineLine` follows it and holds every decision
the engine makes against the stored one — the same events, kinds and clauses, the seat that moved, the seed revealed
where the game ended with the outcome it had. A game the engine decides exactly as stored would replay to the same
game, so the report is "same" without replaying it. Where the engine parts from the store, EngineLine says so
(NotPlain) and the game goes to the detailed decoder, whose report replays the game's record under the current
engine (`reverify`) and names the difference.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain import ENGINE_VERSION
from domain.game import Game
from domain.randomness import commitment
from domain.records import parse, replay
from service import fast_road

from .decoded import NotPlain
from .redecision import SeedCheck


class EngineLine:
    """Follows the re-decision of a plain game; `departed` once the engine parts from the store (module docstring)."""

    def __init__(self, decider: Any, created: Any, revealed: str | None, decisions: int):
        self.d, self.created, self.revealed, self.last = decider, created, revealed, decisions - 1
        self.moves = 0
        self.departed = revealed is not None and (revealed != created.seed or commitment(revealed) != created.commitment)

    def decided(self, number: int, decision: Any, decided: list | None, error: Exception | None, chance: Any,
                before: Any, state: Any) -> None:
        """One decision decided again (`decided`: the engine's events, None unless they are the stored ones; `state`:
        the game after the stored events)."""
        if self.departed:
            return
        move, happened, reveals = decision
        if decided is None or error is not None or not happened or (chance.__class__ is SeedCheck and chance.departs):
            self.departed = True  # (a rewind comes with no events decided: the line stops there too)
            return
        if number > 0:
            if move is None or happened[0][0].fields["actor"] != f"seat:{move['seat']}":
                self.departed = True
                return
            self.moves += 1
        d = self.d
        clause_of = d.clause_of
        for (row, _), mine in zip(happened, decided):
            fields = row.fields
            if fields["kind"] != mine["type"] or fields["clause"] != clause_of(mine):
                self.departed = True
                return
        # an ended game refuses every later move, so only the last decision can end it
        outcome = d.outcome(state) if reveals or number == self.last else None
        if outcome is not None and outcome.is_over and number > 0:
            reveal = reveals[0].fields if len(reveals) == 1 and decision.ends_revealed else None
            if reveal is None or reveal["seed"] != self.created.seed or reveal["result"] != outcome.result \
                    or reveal["winner"] != outcome.winner_json() \
                    or reveal["scores"] != (None if outcome.scores is None else list(outcome.scores)):
                self.departed = True
        elif reveals:
            self.departed = True

    def report(self, game_id: UUID) -> dict:
        """The engine's report of a game it decides exactly as stored; NotPlain where it parted from the store."""
        if self.departed:
            raise NotPlain
        return {"id": str(game_id), "played_under": self.created.engine_version, "current_engine": ENGINE_VERSION,
                "moves": self.moves, "same": True, "differences": []}


def reverify(app: Any, game_id: UUID, game: Game | None = None) -> dict:
    """Replay a stored game's moves with the current engine and say whether its outcome would differ
    (`game`: the game already folded from its events, else loaded from the store)."""
    game = app.game(game_id) if game is None else game
    doc = game.to_record(reveal_seed=True)
    doc["players"] = game.setup.players()  # as set up: a name given at the table (PlayerNamed) is no move to re-decide
    result = replay(parse(doc), fast_road_allowed=fast_road.allowed())
    now = result.state
    same_state = now == game.state
    differs = []
    if result.illegal is not None:
        differs.append(f"move {result.illegal['move_index']} is now illegal ({result.illegal['rule']}: {result.illegal['reason']})")
    if game.decider.outcome(now) != game.outcome:
        differs.append(f"the outcome would be {game.decider.outcome(now).result!r} instead of {game.outcome.result!r}")
    elif not same_state:
        differs.append("the final position would differ")
    return {"id": str(game_id), "played_under": game.engine_version, "current_engine": ENGINE_VERSION,
            "moves": game.move_count, "same": not differs, "differences": differs}
