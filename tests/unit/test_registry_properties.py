"""Generic properties that every registered game inherits by registering (the OpenSpiel idea, ../shared/STYLE.md).

Over random games of every decider in `domain.games.DECIDERS`, using only the `Decider` contract and the game's
spec (its codec, its clause prefix):
the fold of the events equals the live state; states survive dump/load; events and moves
round-trip through the game's codec and JSON; every listed legal move is accepted by `decide`
and made by a seat to act; every refusal and every event cites the game's own clauses; a record
round-trips; a record corrupted at move k is refused at move k.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.autoplay import pick_move
from domain.games import DECIDERS, SPECS
from domain.randomness import Chance
from domain.records import parse, replay, to_document
from domain.rules import InvalidSetup, RuleViolation

GAMES = sorted(DECIDERS)


def tables(game: str) -> list[tuple[dict, list[dict]]]:
    """Every (options, players) of 2 to 6 seats that the game accepts, for each of its example options."""
    out, decider = [], DECIDERS[game]
    for options in SPECS[game].example_options:
        for n in range(2, 7):
            players = [{"name": f"P{i}"} for i in range(n)]
            try:
                decider.configure(options, players, None, None)
            except InvalidSetup:
                continue
            out.append((options, players))
    return out


def play(decider, options, players, seed: str, rng: random.Random, limit: int = 250):
    """A random game: (set-up, chance, moves, states after each move, events of each move)."""
    setup = decider.configure(options, players, None, None)
    chance = Chance(seed)
    state = decider.initial_state(setup)
    opening = decider.start(setup, chance)
    for e in opening:
        state = decider.evolve(state, e)
    moves, states, events = [], [state], [opening]
    while len(moves) < limit and not decider.outcome(state).is_over:
        legal = list(decider.legal_moves(state))
        assert legal, "a game in progress has a legal move"
        move = pick_move(legal, rng)
        assert move["seat"] in decider.to_act(state)
        new_events, state = decider.step(state, move, chance)
        moves.append(move)
        states.append(state)
        events.append(new_events)
    return setup, chance, moves, states, events


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12, deadline=None)
@given(seed=st.binary(min_size=2, max_size=8).map(bytes.hex), rng=st.randoms(use_true_random=False), data=st.data())
def test_every_game_folds_round_trips_and_cites_its_own_clauses(game, seed, rng, data):
    d, codec, prefix = DECIDERS[game], SPECS[game].codec, SPECS[game].prefix
    options, players = data.draw(st.sampled_from(tables(game)))
    setup, chance, moves, states, events = play(d, options, players, seed, rng)
    state = d.initial_state(setup)
    for i, batch in enumerate(events):
        for e in batch:
            stored = json.loads(json.dumps(codec.encode_event(e)))
            assert codec.decode_event(stored) == e
            assert d.clause_of(e).startswith(prefix + "-")
            assert isinstance(d.chance_of(e), dict)
            state = d.evolve(state, e)
        assert state == states[i], f"the fold differs from the live state after move {i - 1}"
        assert codec.load_state(json.loads(json.dumps(codec.dump_state(state)))) == state
    for move in moves:
        raw = json.loads(json.dumps(codec.format_move(move)))
        assert codec.parse_move(raw, setup.n) == move
    # a sample of positions: every listed move is accepted by decide, by a seat to act
    for state in rng.sample(states, min(5, len(states))):
        for move in list(d.legal_moves(state))[:200]:
            assert move["seat"] in d.to_act(state)
            d.decide(state, move, chance)
    # the whole game as a record replays to the same state and verdict
    record = parse(to_document(game, setup, seed, {}, moves))
    result = replay(record)
    assert result.illegal is None and result.state == states[-1]
    if d.outcome(states[-1]).is_over:
        assert list(d.legal_moves(states[-1])) == []
        with pytest.raises(RuleViolation) as over:
            d.decide(states[-1], {"seat": 0, "type": "say", "text": "again"}, chance)
        assert over.value.clause.startswith(prefix + "-")


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=10, deadline=None)
@given(seed=st.binary(min_size=2, max_size=8).map(bytes.hex), rng=st.randoms(use_true_random=False), data=st.data())
def test_a_record_corrupted_at_a_move_is_refused_at_that_move(game, seed, rng, data):
    """Move k played by a seat that is not to act (or a stale move) is illegal at index k, with the game's own clause."""
    d = DECIDERS[game]
    options, players = data.draw(st.sampled_from(tables(game)))
    setup, chance, moves, states, _ = play(d, options, players, seed, rng, limit=120)
    candidates = [k for k in range(len(moves)) if len(d.to_act(states[k])) == 1 and setup.n > 1]
    if not candidates:
        return
    k = data.draw(st.sampled_from(candidates))
    wrong_seat = next(s for s in range(setup.n) if s not in d.to_act(states[k]))
    corrupted = [*moves[:k], {**moves[k], "seat": wrong_seat}, *moves[k + 1:]]
    result = replay(parse(to_document(game, setup, seed, {}, corrupted)))
    assert result.illegal is not None and result.illegal["move_index"] == k
    assert result.illegal["rule"].startswith(SPECS[game].prefix + "-")
    assert result.state == states[k]
