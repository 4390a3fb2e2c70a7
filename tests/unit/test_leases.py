"""Leases and what the duty loop decides with them (service/adapters/leases.py, service/tournaments/duty.py): a
lease's key, one holder, and work done only under a lease held."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from uuid import UUID, uuid4

from service.adapters.leases import FileLeases, MemoryLeases, PostgresLeases, lease_key, leases_for
from service.tournaments.duty import CREATED, DELETED, FINISHED, GAME_STARTED, TournamentDuty

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
    assert advanced == [mine], "a move that ends nothing creates nothing"
    duty.notice(Notification(topic="domain.game:Game.SeedRevealed", originator_id=game))
    duty.act(leases, claim=False)
    assert advanced == [mine, mine], "the end of one of its games"
    duty.notice(Notification(topic=FINISHED, originator_id=mine))
    duty.act(leases, claim=True)
    assert leases.held == set(), "a finished tournament's lease is given back"


def test_a_deleted_tournament_is_no_longer_live_and_its_lease_is_given_back():
    tid = uuid4()
    advanced: list = []
    duty = duty_over(advanced)
    duty.notice(Notification(topic=CREATED, originator_id=tid))
    leases = Leases(others=set())
    duty.act(leases, claim=True)
    assert leases.held == {tid}
    duty.notice(Notification(topic=DELETED, originator_id=tid))
    duty.act(leases, claim=True)
    assert leases.held == set() and tid not in duty.live, "a deleted tournament is looked at no more"


def test_the_http_layer_never_acts_as_a_seat_without_its_token():
    uses = [f"{path.relative_to(ROOT)}" for path in (ROOT / "api").rglob("*.py")
            if re.search(r"\b(as_seat|move_as_seat|SeatActor)\b", path.read_text(encoding="utf-8"))]
    assert uses == []


class Table:
    """A fake game with bot seats: a bot has a move while `to_move` says so; `over` ends it."""

    def __init__(self, bots: dict):
        self.bots, self.over, self.to_move, self.played, self.released = dict(bots), False, set(bots), [], []


class Play:
    """A fake play facade over fake tables (only what BotDuty uses)."""

    def __init__(self, tables: dict):
        self.tables = tables
        self.bot_seats = SimpleNamespace(seats=lambda gid: dict(self.tables[UUID(gid)].bots), release=self.release)
        self.app = SimpleNamespace(game=lambda gid: SimpleNamespace(outcome=SimpleNamespace(is_over=self.tables[gid].over),
                                                                    version=1, setup=SimpleNamespace(n=2)),
                                   mapper=SimpleNamespace(to_domain_event=lambda n: n.event))

    def release(self, gid: str, seat: int, reason: str) -> None:
        table = self.tables[UUID(gid)]
        table.bots.pop(seat, None)
        table.released.append((seat, reason))

    def as_seat(self, gid, seat):
        table = self.tables[gid]

        def move(command):
            table.played.append(seat)
            table.to_move.discard(seat)

        view = {"game": "small-battle", "version": 1, "table": {"legal_moves": ["x"] if seat in table.to_move else []}}
        return SimpleNamespace(view=lambda: view, move=move)


def test_bots_play_only_the_games_whose_lease_is_held_and_a_game_over_gives_back_its_seats_and_lease(monkeypatch):
    import service.play.bot_duty as bot_duty

    monkeypatch.setattr(bot_duty, "make_bot", lambda *a: SimpleNamespace(choose=lambda view: {"type": "pass"}))
    monkeypatch.setattr(bot_duty, "SeatView", SimpleNamespace(from_http=lambda view: view))
    mine, theirs = uuid4(), uuid4()
    tables = {mine: Table({0: "random", 1: "random"}), theirs: Table({1: "random"})}
    duty = bot_duty.BotDuty(Play(tables))
    for gid, table in tables.items():
        seats_id = uuid4()
        duty.notice(Notification(topic=bot_duty.CREATED, originator_id=seats_id, event=SimpleNamespace(game_id=str(gid))))
        for seat, kind in table.bots.items():
            duty.notice(Notification(topic=bot_duty.SEATED, originator_id=seats_id, event=SimpleNamespace(seat=seat, bot=kind)))
    leases = Leases(others={theirs})
    duty.act(leases, claim=False)
    assert tables[mine].played == [] and leases.held == set(), "no lease tried: nothing played"
    duty.act(leases, claim=True)
    assert sorted(tables[mine].played) == [0, 1] and tables[theirs].played == [], "each bot of the held game, once"
    assert duty.moves == 2 and leases.held == {mine}
    tables[mine].over = True
    duty.notice(Notification(topic="domain.game:Game.Happened", originator_id=mine))
    duty.act(leases, claim=False)
    assert tables[mine].released == [(0, "the game is over"), (1, "the game is over")] and leases.held == set()
