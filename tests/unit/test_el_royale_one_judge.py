"""El Royale's legality has one judge, `decider.refusal`: over random reachable states of both editions, a move is in
legal_moves exactly when refusal lets it pass, and decide refuses exactly what refusal refuses, with its clause and
reason (contract §2's `illegal.rule` and `illegal.reason`)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import el_royale as er
from domain.cards import RANK_MASKS, cards_of
from domain.el_royale.decider import refusal
from domain.rules import RuleViolation
from tests.unit.test_el_royale_properties import candidate_moves, play, tables
from tests.conftest import examples

PLAYS = ("attack", "throw_in", "beat")
ANSWERS = ("pass", "concede", "claim")


def card_sets(state, rng: random.Random) -> list[list[int]]:
    """Card sets to try as a play of the seat to act: every set of one rank from its hand (a legal play is always
    one), every pair across two ranks, none, and random sets with a card from elsewhere or one named twice."""
    hand = cards_of(state.hands[state.to_act])
    sets = [list(c) for mask in RANK_MASKS for held in [cards_of(state.hands[state.to_act] & mask)]
            for size in range(1, len(held) + 1) for c in combinations(held, size)]
    sets += [list(pair) for pair in combinations(hand, 2) if pair[0] % 13 != pair[1] % 13]
    sets.append([])
    for _ in range(10):
        cards = rng.sample(hand, rng.randint(1, min(4, len(hand)))) if hand else []
        cards.append(rng.randrange(52) if rng.random() < 0.5 or not cards else cards[0])
        sets.append(cards)
    return sets


def take_sets(state, rng: random.Random) -> list[list[int]]:
    """Card sets to try as a take: random sets of the laid-out cards of every size, some with a card from elsewhere
    or one named twice (all of them would be too many: an eliminated hand holds 17 cards or more)."""
    laid = cards_of(state.laid_out)
    sets = [rng.sample(laid, rng.randint(0, len(laid))) for _ in range(40)]
    sets += [s + [rng.choice(s + [rng.randrange(52)])] for s in sets[:10]]
    return sets


def moves_to_try(state, rng: random.Random) -> list[dict]:
    """Moves of the seat to act of every type, with the card sets above, plus random moves by any seat."""
    seat = state.to_act
    moves = [{"seat": seat, "type": kind} for kind in ANSWERS]
    if state.phase == "take":
        moves += [{"seat": seat, "type": "take", "cards": cards} for cards in take_sets(state, rng)]
    else:
        sets = card_sets(state, rng)
        moves += [{"seat": seat, "type": kind, "cards": cards} for kind in PLAYS for cards in sets]
        moves += [{"seat": seat, "type": "take", "cards": cards} for cards in sets[:3]]
    moves += candidate_moves(state, rng, 6)
    moves += [{"seat": rng.randrange(state.n), "type": "show", "cards": rng.sample(range(52), rng.randint(0, 2))},
              {"seat": rng.randrange(state.n), "type": "say", "text": "hm"}]
    return moves


def key(move: dict) -> tuple:
    """A move as legal_moves lists it: card order is free, and a move without cards reads none (codec: bare moves)."""
    read = move["type"] in er.CARD_MOVES | er.OPTIONAL_CARD_MOVES
    return move["seat"], move["type"], tuple(sorted(move.get("cards") or ())) if read else ()


def decision(state, move: dict, chance) -> tuple[str, str] | None:
    """What decide says of a move: None when it accepts it, else its refusal's (clause, reason)."""
    try:
        er.decide(state, move, chance)
    except RuleViolation as v:
        return v.clause, v.reason
    return None


def reachable_states(table, every: int = 3):
    """Every `every`-th state along a random game of the table, the start included, up to its end."""
    setup, chance, rng, passive = table
    for i, (_, _, _, state) in enumerate(play(setup, chance, rng, passive, max_moves=150)):
        if i % every == 0:
            yield state
        if state.outcome is not None:
            return


def assert_listed_iff_refusal_passes(state, rng: random.Random) -> None:
    """Each listed move passes refusal (of a take's list, which is too long to go through, the first and last 50 and
    200 at random), none is listed twice, and each move tried is listed iff refusal lets it pass."""
    moves = list(er.legal_moves(state))
    listed = [key(m) for m in moves]
    assert len(set(listed)) == len(listed), "a move listed twice"
    if len(moves) > 300:
        moves = moves[:50] + moves[-50:] + rng.sample(moves, 200)
    for move in moves:
        assert refusal(state, move) is None, move
    listed = set(listed)
    for move in moves_to_try(state, rng):
        if move["type"] not in ("say", "show"):  # open to every seat at any time, never listed
            assert (key(move) in listed) == (refusal(state, move) is None), (move, refusal(state, move))


def assert_decide_gives_refusal(state, chance, rng: random.Random) -> None:
    """decide accepts a move iff refusal gives None, and otherwise raises refusal's clause and reason."""
    for move in moves_to_try(state, rng):
        refused = refusal(state, move)
        assert decision(state, move, chance) == (None if refused is None else (refused.clause, refused.reason)), move


@pytest.mark.parametrize("edition", ["classic", "revised"])
@settings(max_examples=examples(20), deadline=None)
@given(data=st.data())
def test_legal_moves_lists_exactly_the_moves_refusal_lets_pass(edition, data):
    """legal_moves is refusal's list, over random games."""
    table = data.draw(tables(edition))
    for state in reachable_states(table):
        if state.outcome is not None:
            assert not list(er.legal_moves(state))
            assert refusal(state, {"seat": 0, "type": "say", "text": "gg"}).clause == "ER-4.5"
        else:
            assert_listed_iff_refusal_passes(state, table[2])


@pytest.mark.parametrize("edition", ["classic", "revised"])
@settings(max_examples=examples(20), deadline=None)
@given(data=st.data())
def test_decide_refuses_exactly_what_refusal_refuses_with_its_clause_and_reason(edition, data):
    """decide is refusal's verdict, over random games."""
    table = data.draw(tables(edition))
    for state in reachable_states(table):
        if state.outcome is None:
            assert_decide_gives_refusal(state, table[1], table[2])


@pytest.mark.parametrize("edition, phases", [
    ("classic", {"attack", "join", "defence", "reinforce", "claim"}),
    ("revised", {"attack", "join", "defence", "reinforce", "claim", "take"}),  # a take needs ER-5's elimination
])
def test_every_phase_of_both_editions_has_one_judge(edition, phases):
    """The first state of each phase met along fixed random games (4 seats, often passive: hands grow) holds both
    properties above, so a phase the random games rarely reach is judged too."""
    from domain.randomness import Chance

    seen: set[str] = set()
    for seed in range(200):
        setup = er.configure({"edition": edition}, [{"name": f"P{k}"} for k in range(4)])
        chance, rng = Chance(f"{seed:04x}"), random.Random(seed)
        for _, _, _, state in play(setup, chance, rng, 0.8, max_moves=600):
            if state.outcome is None and state.phase not in seen:
                seen.add(state.phase)
                assert_listed_iff_refusal_passes(state, rng)
                assert_decide_gives_refusal(state, chance, rng)
        if phases <= seen:
            return
    raise AssertionError(f"{edition}: never reached {phases - seen}")


@pytest.mark.parametrize("edition", ["classic", "revised"])
@settings(max_examples=examples(10), deadline=None)
@given(data=st.data())
def test_the_rollout_players_moves_are_listed_by_legal_moves(edition, data):
    """Analysis' rollouts apply moves with fold_legal, which does not ask refusal: every move whole_plays and answer
    give is one legal_moves lists, and each whole play names every card of its rank the seat holds."""
    from domain.el_royale.moves import answer, whole_plays

    table = data.draw(tables(edition))
    for state in reachable_states(table, every=1):
        if state.outcome is not None:
            continue
        listed = {key(m) for m in er.legal_moves(state)}
        for kind in PLAYS:
            for move in whole_plays(state, kind):
                assert key(move) in listed, move
                held = state.hands[state.to_act] & RANK_MASKS[move["cards"][0] % 13]
                assert edition == "classic" and kind == "beat" or sorted(move["cards"]) == cards_of(held), move
        for kind in ANSWERS + ("take",):
            try:
                move = answer(state, kind)
            except ValueError:
                assert not any(m["type"] == kind and not m.get("cards") for m in er.legal_moves(state))
                continue
            assert key(move) in listed, move
