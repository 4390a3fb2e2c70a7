"""El Royale's verdict-only replay loop (domain/el_royale/replay_fast.py) against the decider: over random games with
random wrong moves of every kind, it applies a move only where step accepts it and then makes step's state exactly,
and it leaves every other move, with the state untouched, to the decider; replay's verdicts and final states are
the same with it as without it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain import el_royale as er
from domain.cards import RANK_MASKS, cards_of
from domain.randomness import Chance
from domain.records import parse, replay, to_document
from domain.rules import RuleViolation
from tests.unit.test_el_royale_properties import candidate_moves, play, tables
from tests.conftest import examples


def near_misses(state, legal: list[dict], rng: random.Random) -> list[dict]:
    """Legal moves made wrong by one thing: a card swapped, one added, the order changed, the seat or type changed."""
    out = []
    for move in rng.sample(legal, min(4, len(legal))):
        cards = list(move.get("cards", ()))
        seat = move["seat"]
        hand = cards_of(state.hands[seat])
        if cards:
            swapped = cards.copy()
            swapped[rng.randrange(len(cards))] = rng.choice(hand if hand and rng.random() < 0.7 else range(52))
            out.append(dict(move, cards=swapped))
            same_rank = cards_of(state.hands[seat] & RANK_MASKS[cards[0] % 13]) or hand
            out.append(dict(move, cards=cards + [rng.choice(same_rank or range(52))]))
            out.append(dict(move, cards=rng.sample(cards, len(cards))))
        out.append(dict(move, seat=(seat + rng.randint(1, state.n - 1)) % state.n))
        out.append(dict(move, type=rng.choice(["attack", "throw_in", "beat", "concede", "pass", "claim", "take"]),
                        cards=cards or rng.sample(hand, min(len(hand), 1))))
    return out


def moves_to_try(state, setup, rng: random.Random) -> list[dict]:
    legal = list(er.legal_moves(state))
    probe = state
    if state.to_act is None:  # the game is over: any seat's moves
        probe = state.clone()
        probe.to_act = rng.randrange(setup.n)
    moves = candidate_moves(probe, rng, 6) + near_misses(state, legal, rng)
    moves += [{"seat": rng.randrange(setup.n), "type": "say", "text": "hi"},
              {"seat": rng.randrange(setup.n), "type": "show", "cards": rng.sample(range(52), rng.randint(0, 2))}]
    return moves + rng.sample(legal, min(4, len(legal)))


@settings(max_examples=examples(80), deadline=None)
@given(tables(), st.booleans())
def test_the_loop_applies_a_move_only_as_step_does_and_leaves_any_other_untouched(table, fixed_reshuffles):
    setup, chance, rng, passive = table
    played = chance
    if fixed_reshuffles:  # ER-2.3 with an outcome that may not fit: the loop draws no chance and must leave it
        chance = Chance(chance.seed, {"reshuffle:1": rng.sample(range(52), rng.randint(1, 40))})
    for _, _, _, state in play(setup, played, rng, passive, max_moves=300):
        for move in moves_to_try(state, setup, rng):
            try:
                want = er.step(state, move, chance)[1]
            except RuleViolation:
                want = None
            mine = state.clone()
            got, stop = er.fold_moves(mine, [move], 0, chance)
            assert got is mine
            if stop == 1:
                assert want is not None, ("the loop applied an illegal move", move, state)
                assert got == want, ("the loop's state differs from step's", move, state)
            else:
                assert stop == 0 and got == state, ("the loop changed the state of a move it left", move)


def moves_with_wrong_ones(setup, chance, rng, passive) -> list[dict]:
    """A random game's moves with says and shows among them and, somewhere, a wrong move of any kind (or none)."""
    moves, wrong_at = [], rng.randrange(-40, 250)
    for before, move, _, _ in play(setup, chance, rng, passive, max_moves=250):
        if move is None:
            continue
        if rng.random() < 0.03:
            moves.append({"seat": rng.randrange(setup.n), "type": "say", "text": "x"})
        if rng.random() < 0.03:
            hand = cards_of(before.hands[move["seat"]])
            moves.append({"seat": move["seat"], "type": "show", "cards": rng.sample(hand, min(len(hand), 2))})
        if len(moves) == wrong_at:
            wrong = moves_to_try(before, setup, rng)
            moves.append(rng.choice(wrong))
        moves.append(move)
    return moves


@settings(max_examples=examples(80), deadline=None)
@given(tables())
def test_replay_gives_the_deciders_verdict_and_final_state_with_the_loop(table):
    setup, chance, rng, passive = table
    moves = moves_with_wrong_ones(setup, chance, rng, passive)
    doc = to_document("el-royale", setup, chance.seed, {}, moves)
    fast = replay(parse(doc))  # the loop, the step for what it leaves
    slow = replay(parse(doc), keep_events=True)  # step for every move
    assert fast.verdict() == slow.verdict()
    assert fast.state == slow.state
