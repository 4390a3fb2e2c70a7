"""A game's bot seats (domain/bot_seats.py): an aggregate beside the game, outside its hash chain, holding no token."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain.bot_seats import GAME_OVER, TAKEN_BACK, BotSeats, bot_seats_id


def test_the_bot_seats_id_is_derived_from_the_game_and_is_not_the_games():
    gid = str(uuid4())
    assert bot_seats_id(gid) == bot_seats_id(gid) == BotSeats(game_id=gid).id
    assert str(bot_seats_id(gid)) != gid and bot_seats_id(gid) != bot_seats_id(str(uuid4()))


def test_seated_and_released_seats_fold_to_the_seats_bots_play():
    seats = BotSeats(game_id=str(uuid4()))
    seats.seat(2, "random")
    seats.seat(0, "heuristic")
    assert seats.seats == {0: "heuristic", 2: "random"}
    seats.release(2, TAKEN_BACK)
    assert seats.seats == {0: "heuristic"}
    events = seats.collect_events()
    assert [type(e).__name__ for e in events] == ["Created", "Seated", "Seated", "Released"]
    again = None
    for e in events:
        again = e.mutate(again)
    assert again.seats == {0: "heuristic"}


def test_a_seat_is_one_bots_and_releasing_a_seat_no_bot_plays_records_nothing():
    seats = BotSeats(game_id=str(uuid4()))
    seats.seat(1, "random")
    with pytest.raises(ValueError, match="seat 1 is already played by a bot"):
        seats.seat(1, "heuristic")
    before = seats.version
    seats.release(0, GAME_OVER)
    assert seats.version == before


def test_no_event_of_the_bot_seats_carries_a_token():
    seats = BotSeats(game_id=str(uuid4()))
    seats.seat(1, "random")
    seats.release(1, GAME_OVER)
    fields = {name for e in seats.collect_events() for name in vars(e)}
    assert not any("token" in name or "sealed" in name for name in fields)
