"""An idempotency key is bound to the request it first came with (service.store.idempotency): the comparison."""

from __future__ import annotations

import pytest

from domain.autoplay import game_rng, random_game
from domain.game import Game
from domain.games import DECIDERS, SPECS
from domain.records import parse, parse_move
from service.errors import BadInput
from service.store.idempotency import DIFFERENT_REQUEST, refuse_different, same_request, stored_key


def test_a_seat_s_key_is_kept_under_the_seat_so_the_two_never_mix():
    assert stored_key(0, "k") == "0:k" and stored_key(1, "k") == "1:k"
    assert stored_key(0, None) is None


def test_the_same_move_is_the_same_request():
    assert same_request({"seat": 0, "type": "play", "cards": [3, 7]}, {"seat": 0, "type": "play", "cards": [3, 7]})


@pytest.mark.parametrize("first, move", [
    ({"seat": 0, "type": "play", "cards": [3]}, {"seat": 0, "type": "play", "cards": [7]}),  # another card
    ({"seat": 0, "type": "play", "cards": [3]}, {"seat": 0, "type": "pass"}),  # another move type
    ({"seat": 0, "type": "pass"}, {"seat": 1, "type": "pass"}),  # another seat
    ({"seat": 0, "type": "say", "text": "hi"}, {"seat": 0, "type": "say", "text": "hello"}),
    (None, {"seat": 0, "type": "pass"}),  # the first move could not be read back: never taken for the same
    ({"seat": 0, "type": "pass"}, None),  # the new move does not parse
])
def test_any_other_move_is_a_different_request(first, move):
    assert not same_request(first, move)


def test_the_refusal_names_the_key_and_tells_nothing_of_the_first_request():
    refusal = refuse_different()
    assert isinstance(refusal, BadInput) and refusal.status == 422 and refusal.field == "idempotency_key"
    assert refusal.detail == DIFFERENT_REQUEST and refusal.detail.startswith("idempotency_key:")
    assert "first used for a different request" in refusal.detail


# -- the first move read back from what is stored is the move as the decider parses a request --------------------

GAMES = sorted(DECIDERS)


@pytest.mark.parametrize("game", GAMES)
def test_a_stored_move_reads_back_as_the_parsed_request_in_every_game(game):
    """The binding compares the new request, parsed (domain.records.parse_move), with `decider.move_of` of the event
    the key is on: for every move of random games, the two are equal, so the same move is always recognised."""
    spec = SPECS[game]
    options = spec.example_options[0]
    n = spec.seats_for(options).low
    record = parse(random_game(game, options, [{"name": f"P{i}"} for i in range(n)], "0b1d", game_rng(game, 7),
                   max_moves=80, chatter=0.2))
    live = Game.start(record, ["h"] * n, "r")
    decider, codec = live.decider, live.codec
    for i, move in enumerate(record.moves):
        done = len(live._pending_events)
        live.play(move, idempotency_key=stored_key(move["seat"], f"k{i}"))
        first = live._pending_events[done]
        assert first.idempotency_key == stored_key(move["seat"], f"k{i}")
        request = parse_move(codec.format_move(move), n, codec)  # what a client sends, parsed
        assert same_request(decider.move_of(codec.decode_event(first.data)), request), f"{game} move {i}: {move}"
