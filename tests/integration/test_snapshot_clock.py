"""A snapshot the service takes from the game it just saved holds the clock of its last move settled; the events
folded up to the same version hold it unsettled. Both row decoders must see one game: the detailed one calls the
snapshot sound and the plain one (service.verification.plain_rows) takes the game without falling back."""

from __future__ import annotations

import random

from service.play.referee import Referee
from service.verification.bulk import read_batch
from service.verification.driver import plain_report as fast_report
from service.verification.checks import check_chain
from tests.integration.service_support import new_game
from tests.tournament_support import _bot_move


def played_past_a_snapshot(url: str):
    referee = Referee(url)
    gid = new_game(referee, n=4)
    rng, bots = random.Random(1), {}
    while referee.game(gid).version < 130 and not referee.game(gid).outcome.is_over:
        game = referee.game(gid)
        raw = _bot_move(game.game, game.decider, game.state, bots, dict(game.options), game.players, rng)
        seat = raw.pop("seat")
        referee.submit_move(gid, seat, raw)
    return referee, gid


def test_a_snapshot_taken_after_a_move_agrees_with_its_events_for_both_verifiers(tmp_path):
    referee, gid = played_past_a_snapshot(f"sqlite:///{tmp_path / 'games.db'}")
    assert list(referee.snapshots.recorder.select_events(gid)), "the game was snapshotted"
    chain = check_chain(referee, gid)
    assert chain["ok"], chain["problems"]
    fast = fast_report(referee, gid, read_batch(referee, [gid])[gid], True, False)
    assert fast is not None, "the plain decoder fell back to the detailed one on a plain game"
    assert fast["ok"], fast
