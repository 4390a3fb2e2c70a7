"""A game's line of play, as the Game aggregate keeps it: the moves with the version of each one's first event, the
answers given to idempotency keys, the outcome of every random step, and the record they make (`to_record`).

The moves are kept as chunks of up to 100 lines "<version of the move's first event> <move JSON>", so that a snapshot of
a long game decodes a few long strings rather than thousands of objects (the lines are in every stored snapshot).
"""

from __future__ import annotations

import json

from .records import to_document


def pack_move(move: dict, version: int) -> str:
    """One move of the log as "<version> <move JSON>" (JSON escapes newlines, so lines join with "\\n")."""
    return f"{version} {json.dumps(move, separators=(',', ':'), ensure_ascii=False)}"


def unpack_move(line: str) -> tuple[int, dict]:
    version, text = line.split(" ", 1)
    return int(version), json.loads(text)


class MoveLog:
    """The Game aggregate's line of play (a base of domain.game.Game, which keeps `move_log`, `answers`, `outcomes`,
    `chance_results`, `decider` and `setup`)."""

    def _move_lines(self) -> list[str]:
        return [line for chunk in self.move_log for line in chunk.split("\n")]

    @property
    def moves(self) -> list[dict]:
        """The moves of the current line of play, in order (cards as ints)."""
        return [unpack_move(line)[1] for line in self._move_lines()]

    @property
    def move_versions(self) -> list[int]:
        """The version of each move's first event, for the current line of play."""
        return [int(line.split(" ", 1)[0]) for line in self._move_lines()]

    @property
    def move_count(self) -> int:
        """How many moves the current line of play holds."""
        return sum(chunk.count("\n") + 1 for chunk in self.move_log)

    def _log_move(self, move: dict, version: int) -> None:
        line = pack_move(move, version)
        if self.move_log and self.move_log[-1].count("\n") < 99:
            self.move_log[-1] += "\n" + line
        else:
            self.move_log.append(line)

    def _note_move(self, move: dict, version: int, idempotency_key: str | None, actor: str) -> None:
        self._log_move(move, version)
        if idempotency_key:
            self.answers[idempotency_key] = {"version": version, "rejected": False, "actor": actor}

    def to_record(self, reveal_seed: bool | None = None) -> dict:
        """The game as an `arbiter.record/1` document: replaying it gives this game's state.

        Until the seed is revealed the record carries no seed: instead it fixes the outcome of
        every shuffle that has happened (contract §2 `outcomes`), which replays exactly to now
        without telling anyone the shuffles still to come.
        """
        if reveal_seed is None:
            reveal_seed = self.seed_revealed
        if reveal_seed:
            doc = to_document(self.game, self.setup, self.seed, self.outcomes, self.moves)
        else:
            doc = to_document(self.game, self.setup, None, self._outcomes_so_far(), self.moves)
        for player, current in zip(doc["players"], self.players):  # names given at the table (PlayerNamed)
            player["name"] = current["name"]
        return doc

    def _outcomes_so_far(self) -> dict:
        """The record's fixed outcomes plus the result of every random step so far (cards as ints)."""
        fixed = dict(self.outcomes)
        fixed.update(self.chance_results)
        return fixed

    def _remember_chance(self, event: dict) -> None:
        """Keep the outcome of each random step (the deal, each reshuffle, each roll) the set-up did not fix."""
        for label, value in self.decider.chance_of(event).items():
            if (label == "dealer" and self.dealer is not None) or (label == "starter" and self.starter is not None):
                continue
            self.chance_results[label] = value
