"""The store's one unit of work (service.store.unit_of_work): load, decide, save what was registered in one
transaction, decide again on a version conflict, write nothing when nothing changed."""

from __future__ import annotations

import pytest
from eventsourcing.application import AggregateNotFoundError

from domain.bot_seats import BotSeats, bot_seats_id
from service.errors import Conflict
from service.store.application import Store
from service.store.unit_of_work import MAX_RETRIES

GAME = "00000000-0000-4000-8000-000000000001"
OTHER = "00000000-0000-4000-8000-000000000002"


@pytest.fixture
def store():
    s = Store("memory://")
    yield s
    s.close()


def seats_of(store: Store, game_id: str = GAME):
    def load(seats_id):
        try:
            return store.repository.get(seats_id)
        except AggregateNotFoundError:
            return BotSeats(game_id=game_id)
    return load


def run(store: Store, decide, game_id: str = GAME):
    return store.command(bot_seats_id(game_id), decide, load=seats_of(store, game_id), what="the game's bot seats")


def test_what_a_decision_records_is_saved_and_its_answer_returned(store):
    assert run(store, lambda uow: uow.aggregate.seat(1, "random") or "seated") == "seated"
    assert store.repository.get(bot_seats_id(GAME)).seats == {1: "random"}


def test_a_decision_that_changes_nothing_writes_nothing(store):
    assert run(store, lambda uow: "looked") == "looked"
    assert store.recorder.max_notification_id() in (None, 0)


def test_every_aggregate_a_decision_adds_is_saved_in_one_transaction(store, monkeypatch):
    saves = []
    save = store.save
    monkeypatch.setattr(store, "save", lambda *aggregates: saves.append(len(aggregates)) or save(*aggregates))

    def decide(uow):
        uow.aggregate.seat(0, "random")
        other = BotSeats(game_id=OTHER)
        other.seat(2, "random")
        uow.add(other)

    run(store, decide)
    assert saves == [2]
    assert store.repository.get(bot_seats_id(OTHER)).seats == {2: "random"}


def test_a_decision_that_raises_saves_nothing(store):
    def decide(uow):
        uow.aggregate.seat(0, "random")
        raise Conflict("refused")

    with pytest.raises(Conflict, match="refused"):
        run(store, decide)
    assert store.recorder.max_notification_id() in (None, 0)


def test_a_version_conflict_decides_again_on_the_fresh_state(store):
    run(store, lambda uow: uow.aggregate.seat(0, "random"))
    seen = []

    def decide(uow):
        seen.append(dict(uow.aggregate.seats))
        if len(seen) == 1:  # another writer saves first, between this load and this save
            rival = store.repository.get(bot_seats_id(GAME))
            rival.seat(1, "random")
            store.save(rival)
        uow.aggregate.seat(2, "random")

    run(store, decide)
    assert seen == [{0: "random"}, {0: "random", 1: "random"}]
    assert store.repository.get(bot_seats_id(GAME)).seats == {0: "random", 1: "random", 2: "random"}


def test_conflicts_without_end_give_up_naming_what_was_busy(store):
    run(store, lambda uow: uow.aggregate.seat(0, "random"))
    tries = []

    def decide(uow):
        tries.append(1)
        rival = store.repository.get(bot_seats_id(GAME))
        rival.seat(len(tries), "random")
        store.save(rival)
        uow.aggregate.release(0, "taken back")

    with pytest.raises(Conflict, match="the game's bot seats is too busy"):
        run(store, decide)
    assert len(tries) == MAX_RETRIES
