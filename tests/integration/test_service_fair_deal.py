"""Provably fair deals (contract §4) through the Referee: commitment at creation, seed revealed at the end.

A game created without a seed gets a secret one; `check_deal` says pending until the game ends, then
the stored `SeedRevealed` seed hashes to the published commitment and every shuffle is recomputed
from it. A creator-given deck (stacked) or seed (seed_given) is consistent but never called fair.
Games use `battle_limit: 3`, which ends them quickly in a draw.
"""

from __future__ import annotations

import hashlib
import json
from uuid import UUID

import pytest

from domain.cards import PACK, format_cards
from domain.game import Game
from service.verification.checks import check_deal
from service.errors import IllegalMove
from tests.integration.service_support import RawEvents, log, play, play_to_end, players
from service.play.new_games import CreateGame

QUICK = {"edition": "revised", "battle_limit": 3}
STORES = ["memory", "sqlite"]


def sha256_hex(seed: str) -> str:
    """The contract's commitment, computed here independently: sha256 of the seed's bytes, as hex."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def create(app, **spec) -> tuple[UUID, dict]:
    created = app.create_game(CreateGame.from_body({"game": "el-royale", "options": QUICK, "players": players(3), **spec}))
    return UUID(created["id"]), created


@pytest.fixture(params=STORES)
def referee(request, stores):
    return stores.referee(stores.url(request.param))


def reveals(app, gid) -> list:
    return [e for e in log(app, gid) if isinstance(e, Game.SeedRevealed)]


def test_a_game_without_a_seed_reveals_nothing_before_it_ends(referee):
    gid, created = create(referee)
    play(referee, gid, 3)
    game = referee.game(gid)
    assert not game.outcome.is_over
    assert reveals(referee, gid) == []
    assert game.seed_revealed is False
    assert "seed" not in game.to_record()


def test_the_seed_is_revealed_once_at_the_end_and_hashes_to_the_published_commitment(referee):
    gid, created = create(referee)
    commitment = created["game"].commitment

    game = play_to_end(referee, gid)

    events = log(referee, gid)
    assert game.outcome.result == "draw"
    assert [type(e) for e in events[-1:]] == [Game.SeedRevealed]
    (revealed,) = reveals(referee, gid)
    assert sha256_hex(revealed.seed) == commitment == events[0].commitment
    assert events[0].seed_given is False and events[0].stacked is False


def test_a_move_after_the_end_is_illegal_and_reveals_nothing_again(referee):
    gid, _ = create(referee)
    game = play_to_end(referee, gid)
    with pytest.raises(IllegalMove) as refused:
        referee.submit_move(gid, 0, {"type": "pass"})
    assert refused.value.rule == "ER-4.5"
    assert len(reveals(referee, gid)) == 1
    assert referee.game(gid).state == game.state


def test_check_deal_before_the_end_is_pending_and_shows_no_seed(referee):
    gid, created = create(referee)
    play(referee, gid, 3)

    deal = check_deal(referee, gid)

    assert deal["status"].startswith("pending")
    assert deal["seed"] is None and deal["fair"] is None
    assert deal["commitment"] == created["game"].commitment


def test_check_deal_of_a_finished_random_game_is_fair_and_its_commitment_is_the_seed_hash(referee):
    gid, created = create(referee)
    play_to_end(referee, gid)

    deal = check_deal(referee, gid)

    assert deal["fair"] is True, deal
    assert deal["commitment"] == sha256_hex(deal["seed"]) == created["game"].commitment
    assert deal["stacked"] is False and deal["seed_given"] is False
    assert deal["shuffles"] and all(s["verified"] for s in deal["shuffles"])
    assert {"dealer", "starter", "deal"} <= {s["label"] for s in deal["shuffles"]}  # every random step, rolls included


def test_check_deal_of_a_game_with_a_given_deck_marks_it_stacked_not_fair(referee):
    gid, _ = create(referee, deck=format_cards(PACK))
    assert log(referee, gid)[0].stacked is True
    play_to_end(referee, gid)

    deal = check_deal(referee, gid)

    assert deal["stacked"] is True
    assert deal["fair"] is not True
    assert "stacked" in deal["status"]


def test_check_deal_of_a_game_with_a_creator_given_seed_marks_it_seed_given_not_fair(referee):
    gid, _ = create(referee, seed="c0ffee")
    assert log(referee, gid)[0].seed_given is True
    play_to_end(referee, gid)

    deal = check_deal(referee, gid)

    assert deal["seed_given"] is True and deal["seed"] == "c0ffee"
    assert deal["commitment"] == sha256_hex("c0ffee")
    assert deal["fair"] is not True
    assert "chosen by the game's creator" in deal["status"]


# -- a tampered reveal or deal in a SQLite file -------------------------------------------------------------------


@pytest.fixture
def finished_on_sqlite(stores):
    url = stores.url("sqlite")
    app = stores.referee(url)
    gid, _ = create(app)
    play_to_end(app, gid)
    raw = RawEvents("sqlite", url)
    try:
        yield url, gid, raw, len(log(app, gid))
    finally:
        raw.close()


def rewrite(raw: RawEvents, gid: UUID, version: int, change) -> None:
    state = raw.json(gid, version)
    change(state)
    raw.set_state(gid, version, json.dumps(state, separators=(",", ":")).encode())


def test_check_deal_catches_a_revealed_seed_that_does_not_match_the_commitment(stores, finished_on_sqlite):
    url, gid, raw, length = finished_on_sqlite
    rewrite(raw, gid, length, lambda s: s.update(seed="00" + s["seed"][2:] if s["seed"][:2] != "00" else "11" + s["seed"][2:]))

    deal = check_deal(stores.referee(url), gid)

    assert deal["fair"] is False
    assert "does not match the commitment" in deal["status"]


def test_check_deal_catches_a_deal_that_is_not_the_seeds_shuffle(stores, finished_on_sqlite):
    url, gid, raw, _ = finished_on_sqlite
    assert raw.json(gid, 2)["kind"] == "dealt"

    def swap_two_cards(state):
        order = state["data"]["order"]
        order[0], order[1] = order[1], order[0]

    rewrite(raw, gid, 2, swap_two_cards)

    deal = check_deal(stores.referee(url), gid)

    assert deal["fair"] is False
    assert {"label": "deal", "version": 2, "fixed_by_record": False, "verified": False} in deal["shuffles"]
    assert "deal is not the seed's shuffle" in deal["status"]


def test_a_game_played_on_after_its_seed_was_revealed_is_not_reported_fair(stores):
    """Contract §4: the seed stays secret until the game ends; play that continued after the reveal was not blind."""
    app = stores.referee(stores.url("memory"))
    gid, _ = create(app)
    ended = play_to_end(app, gid)
    number = app.file_dispute(gid, 0, ended.move_versions[-1], "the last move was illegal")["number"]
    app.rule_dispute(gid, number, "upheld", "rewind", "")
    resumed = app.game(gid)
    assert not resumed.outcome.is_over and len(reveals(app, gid)) == 1  # in play again, seed already public
    play_to_end(app, gid, rng_seed=99)

    assert check_deal(app, gid)["fair"] is not True
