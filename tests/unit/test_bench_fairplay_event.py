"""The event screen's bench (bench/fairplay_event.py): an event seats every player once a round, its screen counts
every decision, and its reference screens without the glance, only inside its `with`."""

from __future__ import annotations

from bench.fairplay_event import event, rollouts_only, timed
from domain.games import spec_for


def test_an_event_seats_every_player_once_a_round_and_a_leftover_player_sits_out():
    games = event("small-battle", 5, 2, "t")
    assert len(games) == 4  # two tables a round, the fifth player out
    for r in (games[:2], games[2:]):
        seated = [n for g in r for n in g.names]
        assert len(seated) == len(set(seated)) == 4


def test_the_event_s_screen_judges_every_decision_and_the_reference_drops_the_glance_only_inside_it():
    games = event("small-battle", 2, 1, "t")
    quick = timed(games, 1)
    assert quick["decisions"] > 0 and quick["referred"] == 0 and quick["judge"].startswith("its glance")
    with rollouts_only("small-battle"):
        assert spec_for("small-battle").analysis.glance is None
        assert timed(games, 1)["judge"] == "1 rollout a candidate"
    assert spec_for("small-battle").analysis.glance is not None
