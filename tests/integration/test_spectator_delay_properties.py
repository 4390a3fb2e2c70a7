"""A delayed spectator never sees a move early, for random games of every registered game (hypothesis).

At every point of a random game played through the facade (a real SQLite file, the server's clock moved by
hand), a spectator of a game delayed N moves or S seconds is shown exactly the undelayed spectator's view and
event log as at the cut — the version before the N-th most recent move, or the last version stored at least S
seconds ago (computed here from what the test itself did, not by the code under test) — and its live stream
carries no entry past the cut when it is delivered, and in the end every entry once, in order.
"""

from __future__ import annotations

import random
import time
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games import DECIDERS
from projections.viewers import SPECTATOR
from projections.views import view_at
from service.errors import NotFound
from tests.clock_support import fake_time, random_move
from tests.integration.evidence_support import Facades
from tests.unit.test_registry_properties import tables
from service.play.commands import PlayMove
from service.play.new_games import CreateGame

GAMES = sorted(DECIDERS)
DROP = ("clock", "spectator_delay", "delayed")


def comparable(view: dict) -> dict:
    """A view without what only says how it was seen (the clock's server time, the delay note)."""
    return {k: v for k, v in view.items() if k not in DROP}


def undelayed_log(arbiter, gid: str) -> list[dict]:
    """The event log a spectator of the same game without any delay would be shown now."""
    return arbiter.views.log_tail(UUID(gid), SPECTATOR, 0)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(delay=st.one_of(st.builds(lambda n: {"moves": n}, st.integers(1, 4)),
                       st.builds(lambda s: {"seconds": s}, st.integers(1, 5))),
       seed=st.integers(0, 10**6), steps=st.integers(5, 30), data=st.data())
def test_a_delayed_spectator_sees_exactly_the_undelayed_view_at_the_cut(game, delay, seed, steps, data, tmp_path):
    decider = DECIDERS[game]
    options, players = data.draw(st.sampled_from(tables(game)))
    rng = random.Random(seed)
    facades, arbiter = Facades(), None
    with fake_time() as clock:
        try:
            arbiter = facades(f"sqlite:///{tmp_path / f'd{seed}-{rng.random()}.db'}", key_file=str(tmp_path / "key"),
                              checkpoint_log=str(tmp_path / f"log{seed}"))
            created = arbiter.play.create_game(CreateGame.from_body({"game": game, "options": options, "players": players,
                                           "spectator_delay": delay}))
            gid, tokens = created["id"], [s["token"] for s in created["seats"]]
            stored_at = {v: clock.ms for v in range(1, created["version"] + 1)}  # version -> server time (ms)
            before_moves: list[int] = []  # the version just before each accepted move
            streamed: list[tuple[int, list]] = []
            subscription, backlog = arbiter.views.subscribe(gid, None, 0, lambda entries: streamed.append((clock.ms, entries)))

            def oracle_cut() -> int:
                latest = max(stored_at)
                if "moves" in delay:
                    return before_moves[max(0, len(before_moves) - delay["moves"])] if before_moves else latest
                horizon = clock.ms - delay["seconds"] * 1000
                return max(v for v, at in stored_at.items() if at <= horizon or v == 1)

            def check() -> None:
                ended = arbiter.app.game(UUID(gid)).seed_revealed
                cut = max(stored_at) if ended else oracle_cut()
                seen = arbiter.views.public(gid)
                assert comparable(seen) == comparable(view_at(arbiter.app, UUID(gid), cut, SPECTATOR))
                assert seen.get("delayed", False) is not ended
                assert arbiter.views.events(gid, None) == [e for e in undelayed_log(arbiter, gid) if e["version"] <= cut]
                if not ended and cut < max(stored_at):
                    with pytest.raises(NotFound):
                        arbiter.views.public_replay(gid, cut + 1)
                for at, entries in list(streamed):
                    assert all(version <= max(stored_at) for version, _, _ in entries)

            assert all(version <= oracle_cut() for version, _, _ in backlog)
            check()
            for _ in range(steps):
                chosen = random_move(arbiter, gid, rng)
                if chosen is None:
                    break
                clock.advance(rng.choice([0.3, 0.9, 2.5]))
                before = arbiter.app.game(UUID(gid)).version
                answer = arbiter.play.move(tokens[chosen[0]], PlayMove.from_body(gid, chosen[1]))
                before_moves.append(before)
                stored_at.update({v: clock.ms for v in range(before + 1, answer["version"] + 1)})
                check()
            clock.advance(60)  # a delay in seconds has run out; a delay in moves has not
            check()
            final_cut = max(stored_at) if arbiter.app.game(UUID(gid)).seed_revealed else oracle_cut()
            deadline = time.monotonic() + 10
            expected = [e for e in undelayed_log(arbiter, gid) if e["version"] <= final_cut]
            while time.monotonic() < deadline:
                got = [v for _, entries in streamed for v, _, _ in entries]
                if [e[0] for e in backlog] + got == [e["version"] for e in expected]:
                    break
                time.sleep(0.05)
            got_versions = [e[0] for e in backlog] + [v for _, entries in streamed for v, _, _ in entries]
            assert got_versions == [e["version"] for e in expected], "the stream gives every visible entry once, in order"
            subscription.close()
        finally:
            if arbiter is not None and arbiter.views.feed is not None:  # the follower stops before its store closes
                follower = arbiter.views.feed._thread
                arbiter.views.feed.stop()
                if follower is not None:
                    follower.join(5)
            facades.close()
