"""A move's answer is built from the events the move just saved (no second read of the store): it must say exactly
what the store then says for the same seat, at every move of a whole game, its end (the seed's reveal) included."""

from __future__ import annotations

import random
from uuid import UUID

import pytest

from service.facade import Arbiter

from .service_support import pick, players, raw_move
from service.play.commands import PlayMove
from service.play.new_games import CreateGame


def _game(arbiter: Arbiter, n: int) -> tuple[UUID, list[str]]:
    created = arbiter.play.create_game(CreateGame.from_body({"game": "el-royale", "options": {"edition": "revised"}, "players": players(n),
                                   "seed": "5eed00a1"}))
    return UUID(created["id"]), [s["token"] for s in created["seats"]]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_every_move_answer_lists_what_the_store_holds_for_that_seat(stores, kind):
    arbiter = Arbiter(stores.url(kind))
    try:
        gid, tokens = _game(arbiter, 4)
        rng = random.Random(1)  # this game ends after 604 moves
        moves = 0
        while not arbiter.app.game(gid).outcome.is_over:
            move = pick(arbiter.app.game(gid), rng)
            answer = arbiter.play.move(tokens[move["seat"]], PlayMove.from_body(str(gid), raw_move(move)))
            first = answer["events"][0]["version"]
            stored = [e for e in arbiter.views.events(str(gid), tokens[move["seat"]], after=first - 1)
                      if e["version"] <= answer["version"]]
            assert answer["events"] == stored, f"move {moves}"
            moves += 1
            assert moves < 700, "the game did not end"
        assert answer["events"][-1]["type"] == "seed_revealed"
        # the last answer's receipt names the head the store holds at its version
        assert answer["receipt"]["head"] == arbiter.evidence.head_at(gid, answer["version"])
    finally:
        arbiter.app.close()


def test_an_answer_replayed_by_idempotency_key_equals_the_first(stores):
    arbiter = Arbiter(stores.url("sqlite"))
    try:
        gid, tokens = _game(arbiter, 3)
        move = pick(arbiter.app.game(gid), random.Random(3))
        body = {**raw_move(move), "idempotency_key": "k1"}
        first = arbiter.play.move(tokens[move["seat"]], PlayMove.from_body(str(gid), body))
        again = arbiter.play.move(tokens[move["seat"]], PlayMove.from_body(str(gid), body))
        assert again["replayed"] and not first["replayed"]
        assert again["events"] == first["events"] and again["version"] == first["version"]
        assert again["receipt"]["head"] == first["receipt"]["head"]
    finally:
        arbiter.app.close()
