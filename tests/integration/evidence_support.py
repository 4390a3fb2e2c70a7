"""Helpers for the evidence tests: games played through the facade (so that receipts and checkpoints are
written), raw deletions behind its back, and the verdicts of a fresh facade and of `arbiter verify --all`."""

from __future__ import annotations

import random
from uuid import UUID

from click.testing import CliRunner

from api.cli.main import main
from service.facade import Arbiter
from tests.integration.service_support import RawEvents, pick, raw_move
from service.play.commands import PlayMove
from service.play.new_games import CreateGame

SHORT = {"edition": "revised", "battle_limit": 3}  # El Royale games that end within a few dozen moves


class Table:
    """A game made through the facade: its id, its seats' tokens and every receipt they were given."""

    def __init__(self, arbiter: Arbiter, created: dict):
        self.arbiter = arbiter
        self.id = created["id"]
        self.gid = UUID(created["id"])
        self.tokens = [s["token"] for s in created["seats"]]
        self.referee_token = created["referee_token"]
        self.receipts = [created["receipt"]]

    @property
    def version(self) -> int:
        return self.arbiter.app.game(self.gid).version

    def over(self) -> bool:
        return self.arbiter.app.game(self.gid).outcome.is_over

    def play(self, moves: int, rng_seed: int = 7) -> "Table":
        """Up to `moves` legal moves (fewer if the game ends), each answer's receipt kept."""
        rng = random.Random(rng_seed)
        for _ in range(moves):
            game = self.arbiter.app.game(self.gid)
            if game.outcome.is_over:
                break
            move = pick(game, rng)
            self.receipts.append(self.arbiter.play.move(self.tokens[move["seat"]], PlayMove.from_body(self.id, raw_move(move)))["receipt"])
        return self

    def play_to_end(self) -> "Table":
        self.play(500)
        assert self.over(), "the game did not end"
        return self


def new_table(arbiter: Arbiter, n: int = 3, options: dict | None = None) -> Table:
    """An El Royale game created through the facade (seed drawn by arbiter)."""
    created = arbiter.play.create_game(CreateGame.from_body({"game": "el-royale", "options": options or {"edition": "revised"},
                                   "players": [{"name": f"P{i}"} for i in range(n)]}))
    return Table(arbiter, created)


class Facades:
    """Arbiter facades on test stores, closed at teardown."""

    def __init__(self):
        self._made: list[Arbiter] = []

    def __call__(self, url: str, **kw) -> Arbiter:
        arbiter = Arbiter(url, **kw)
        self._made.append(arbiter)
        return arbiter

    def close(self) -> None:
        for arbiter in self._made:
            arbiter.app.close()
        self._made.clear()


def truncate(kind: str, url: str, gid: UUID, keep: int) -> list[int]:
    """Delete a game's stored events after version `keep` (and any snapshot past it), behind the service's back."""
    raw = RawEvents(kind, url)
    try:
        gone = [v for v in raw.versions(gid) if v > keep]
        for version in reversed(gone):
            raw.delete(gid, version)
        return gone
    finally:
        raw.close()


def delete_game(kind: str, url: str, gid: UUID) -> None:
    """Delete every stored event of a game."""
    truncate(kind, url, gid, 0)


def verify_all(url: str, *extra: str):
    """`arbiter verify --all` on a store, in process: (exit code, output, exception)."""
    result = CliRunner().invoke(main, ["verify", "--all", "--database-url", url, *extra])
    return result.exit_code, result.output, result.exception
