"""Helpers for the Referee service's integration tests: moves in the API's shape, games played forward, raw rows."""

from __future__ import annotations

import json
import random
import sqlite3
from uuid import UUID

from domain.cards import format_cards
from domain.el_royale import legal_moves
from domain.game import Game
from service.play.new_games import CreateGame

SEED = "5eed0001"


def players(n: int) -> list[dict]:
    """n named seats."""
    return [{"name": f"P{i}"} for i in range(n)]


def new_game(app, n: int = 3, seed: str | None = SEED, **spec) -> UUID:
    """Create an El Royale game (revised) and return its id."""
    doc = {"game": "el-royale", "options": {"edition": "revised"}, "players": players(n), **spec}
    if seed is not None:
        doc["seed"] = seed
    return UUID(app.create_game(CreateGame.from_body(doc))["id"])


def raw_move(move: dict) -> dict:
    """A decider move (cards as ints, with seat) in the shape submit_move takes (cards as strings, no seat)."""
    out = {"type": move["type"]}
    if "cards" in move:
        out["cards"] = format_cards(move["cards"])
    if "text" in move:
        out["text"] = move["text"]
    return out


def same_move(a: dict, b: dict) -> bool:
    """Whether two moves are the same (card order within a move is free)."""
    return (a["seat"], a["type"], sorted(a.get("cards", []))) == (b["seat"], b["type"], sorted(b.get("cards", [])))


def pick(game: Game, rng: random.Random) -> dict:
    """A legal move of the seat to act, preferring plays now and then so that games progress."""
    legal = list(legal_moves(game.state))
    plays = [m for m in legal if m["type"] not in ("pass", "concede")]
    if plays and rng.random() < 0.4:
        return rng.choice(plays)
    return rng.choice(legal)


def play(app, game_id: UUID, moves: int, rng_seed: int = 7, max_version: int = 90) -> list[dict]:
    """Play up to `moves` legal moves (fewer if the game ends or reaches max_version); returns the answers."""
    rng = random.Random(rng_seed)
    answers = []
    for _ in range(moves):
        game = app.game(game_id)
        if game.outcome.is_over or game.version >= max_version:
            break
        move = pick(game, rng)
        answers.append(app.submit_move(game_id, move["seat"], raw_move(move)))
    return answers


def play_to_end(app, game_id: UUID, rng_seed: int = 7, limit: int = 500) -> Game:
    """Play legal moves until the game is over; returns the final game."""
    rng = random.Random(rng_seed)
    for _ in range(limit):
        game = app.game(game_id)
        if game.outcome.is_over:
            return game
        move = pick(game, rng)
        app.submit_move(game_id, move["seat"], raw_move(move))
    raise AssertionError(f"game {game_id} did not end within {limit} moves")


def log(app, game_id: UUID) -> list:
    """The stored events of a game, read through the library (not through the code under test)."""
    return list(app.events.get(game_id))


def played(events: list) -> list:
    """The stored events that record a seat's move (the first event of each move)."""
    return [e for e in events if isinstance(e, Game.Happened) and e.actor.startswith("seat:")]


class RawEvents:
    """Direct access to a store's events (or snapshots) table, to tamper with it behind the application's back."""

    def __init__(self, kind: str, url: str, table: str = "events"):
        self.kind = kind
        self.url = url
        if kind == "sqlite":
            self._conn = sqlite3.connect(url[len("sqlite:///"):], isolation_level=None)
            names = [r[0] for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            self._ph = "?"
        elif kind == "postgres":
            import psycopg
            from urllib.parse import parse_qs, urlparse

            self._schema = parse_qs(urlparse(url).query)["schema"][0]
            self._conn = psycopg.connect(url.split("?", 1)[0], autocommit=True)
            names = [r[0] for r in self._conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (self._schema,))]
            self._ph = "%s"
        else:
            raise ValueError(kind)
        found = [n for n in names if n.endswith(table) and (table == "snapshots" or "snapshot" not in n)]
        assert len(found) == 1, f"expected one {table} table, found {names}"
        self.table = found[0] if kind == "sqlite" else f'"{self._schema}"."{found[0]}"'

    def close(self) -> None:
        self._conn.close()

    def _id(self, game_id: UUID):
        return game_id.hex if self.kind == "sqlite" else game_id

    def _run(self, sql: str, *params):
        return self._conn.execute(sql.replace("?", self._ph), params)

    def versions(self, game_id: UUID) -> list[int]:
        rows = self._run(f"SELECT originator_version FROM {self.table} WHERE originator_id = ? ORDER BY originator_version",
                         self._id(game_id)).fetchall()
        return [r[0] for r in rows]

    def state(self, game_id: UUID, version: int) -> bytes:
        row = self._run(f"SELECT state FROM {self.table} WHERE originator_id = ? AND originator_version = ?",
                        self._id(game_id), version).fetchone()
        assert row is not None, f"no stored row at version {version}"
        return bytes(row[0])

    def topic(self, game_id: UUID, version: int) -> str:
        return self._run(f"SELECT topic FROM {self.table} WHERE originator_id = ? AND originator_version = ?",
                         self._id(game_id), version).fetchone()[0]

    def set_state(self, game_id: UUID, version: int, state: bytes) -> None:
        cur = self._run(f"UPDATE {self.table} SET state = ? WHERE originator_id = ? AND originator_version = ?",
                        state, self._id(game_id), version)
        assert cur.rowcount == 1

    def delete(self, game_id: UUID, version: int) -> None:
        cur = self._run(f"DELETE FROM {self.table} WHERE originator_id = ? AND originator_version = ?",
                        self._id(game_id), version)
        assert cur.rowcount == 1

    def insert(self, game_id: UUID, version: int, topic: str, state: bytes) -> None:
        self._run(f"INSERT INTO {self.table} (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
                  self._id(game_id), version, topic, state)

    def json(self, game_id: UUID, version: int) -> dict:
        return json.loads(self.state(game_id, version))
