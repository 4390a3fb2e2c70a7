"""Leases and what the duty loop decides with them (service/adapters/leases.py, service/tournaments/duty.py): a
lease's key, one holder, and work done only under a lease held."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from uuid import uuid4

from service.adapters.leases import FileLeases, MemoryLeases, PostgresLeases, lease_key, leases_for
from service.tournaments.duty import FINISHED, GAME_STARTED, TournamentDuty

ROOT = Path(__file__).resolve().parents[2]


def test_a_lease_key_is_two_32_bit_halves_and_names_the_schema():
    lease = uuid4()
    a, b = lease_key("s1", lease)
    assert all(-2**31 <= k < 2**31 for k in (a, b))
    assert lease_key("s1", lease) == (a, b)
    assert lease_key("s2", lease)[0] != a, "advisory locks are database-wide: another schema is another lease"
    assert lease_key("s1", uuid4())[1] != b


def test_each_store_has_its_own_kind_of_lease():
    assert isinstance(leases_for("memory://"), MemoryLeases)
    assert isinstance(leases_for("sqlite:///tmp/x.db"), FileLeases)
    assert isinstance(leases_for("postgresql://u@h:5432/db?schema=s"), PostgresLeases)
    assert leases_for("postgresql://u@h:5432/db?schema=s").conn is None, "no connection before the first lease"


class Leases(MemoryLeases):
    """Leases where `others` are held by another host."""

    def __init__(self, others=()):
        super().__init__()
        self.others = set(others)

    def take(self, ids):
        return set(ids) - self.others


class Notification(SimpleNamespace):
    pass


def duty_over(advanced: list) -> TournamentDuty:
    """A tournaments' duty over a facade that notes what it advances (a notification's `game` is its GameStarted's)."""
    mapper = SimpleNamespace(to_domain_event=lambda n: SimpleNamespace(game_id=n.game))
    return TournamentDuty(SimpleNamespace(advance=advanced.append, app=SimpleNamespace(mapper=mapper)))


def test_a_tournament_advances_only_where_its_lease_is_held_and_is_looked_at_when_its_game_changes():
    mine, theirs, game = uuid4(), uuid4(), uuid4()
    advanced: list = []
    duty = duty_over(advanced)
    duty.notice(Notification(topic=GAME_STARTED, originator_id=mine, game=str(game)))
    duty.notice(Notification(topic=GAME_STARTED, originator_id=theirs, game=str(uuid4())))
    leases = Leases(others={theirs})
    duty.act(leases, claim=False)
    assert advanced == [], "no lease tried, none held: nothing done"
    duty.act(leases, claim=True)
    assert advanced == [mine] and leases.held == {mine}
    duty.act(leases, claim=True)
    assert advanced == [mine], "nothing new: nothing looked at"
    duty.notice(Notification(topic="domain.game:Game.Happened", originator_id=game))
    duty.act(leases, claim=False)
    assert advanced == [mine, mine], "a change in one of its games"
    duty.notice(Notification(topic=FINISHED, originator_id=mine))
    duty.act(leases, claim=True)
    assert leases.held == set(), "a finished tournament's lease is given back"


def test_the_http_layer_never_acts_as_a_seat_without_its_token():
    uses = [f"{path.relative_to(ROOT)}" for path in (ROOT / "api").rglob("*.py")
            if re.search(r"\b(as_seat|move_as_seat|SeatActor)\b", path.read_text(encoding="utf-8"))]
    assert uses == []
