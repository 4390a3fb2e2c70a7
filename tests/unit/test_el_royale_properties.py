"""Property tests over random El Royale games: 2–8 players, both editions, individual and teams."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import el_royale as er
from domain.cards import cards_of
from domain.randomness import Chance
from domain.records import parse, replay
from domain.rules import RuleViolation
from tests.conftest import examples

CLAUSE = re.compile(r"^ER-\d+\.\d+$")


def team_layouts(n: int) -> list[list[str] | None]:
    """Every legal team layout for n seats (ER-1.2 R: equal teams of 2+, interleaved), plus individual play."""
    layouts: list[list[str] | None] = [None]
    for teams in range(2, n // 2 + 1):
        if n % teams == 0:
            layouts.append([f"T{seat % teams}" for seat in range(n)])
    return layouts


@st.composite
def tables(draw, edition: str | None = None):
    """A random table: player count, edition (unless given), team layout, battle limit, seed, and a play style."""
    n = draw(st.integers(2, 8))
    teams = draw(st.sampled_from(team_layouts(n)))
    edition = edition or draw(st.sampled_from(["revised", "classic"]))
    limit = draw(st.integers(1, 60)) if draw(st.integers(0, 3)) == 0 else None  # a battle limit in a quarter of games
    seed = draw(st.binary(min_size=1, max_size=16)).hex()
    rng_seed = draw(st.integers(0, 2**32))
    passive = draw(st.floats(0.0, 1.0))  # how often a seat concedes or passes rather than plays
    players = [{"name": f"P{i}"} if teams is None else {"name": f"P{i}", "team": teams[i]} for i in range(n)]
    options = {"edition": edition}
    if limit is not None:
        options["battle_limit"] = limit
    return er.configure(options, players), Chance(seed), random.Random(rng_seed), passive


def choose(legal: list[dict], rng: random.Random, passive: float) -> dict:
    """A random legal move: passive players concede and pass more (hands grow, eliminations happen)."""
    soft = [m for m in legal if m["type"] in ("pass", "concede")]
    if soft and rng.random() < passive:
        return rng.choice(soft)
    move = rng.choice(legal)
    if len(move.get("cards", ())) > 1:
        move = dict(move, cards=rng.sample(move["cards"], len(move["cards"])))
    return move


def play(setup, chance, rng, passive, max_moves=400):
    """Yield (state before, move, events, state after) along one random game."""
    state = er.initial_state(setup)
    for e in er.start(setup, chance):
        state = er.evolve(state, e)
    yield None, None, [], state
    for _ in range(max_moves):
        if er.outcome(state).is_over:
            return
        move = choose(list(er.legal_moves(state)), rng, passive)
        events, after = er.step(state, move, chance)
        yield state, move, events, after
        state = after


def all_cards(state) -> list[int]:
    """Every card the table holds, wherever it is, as a flat list (duplicates would show)."""
    out = list(state.pile) + list(state.deck[state.deck_pos:]) + cards_of(state.discard) + cards_of(state.laid_out)
    for hand in state.hands:
        out += cards_of(hand)
    return out


@settings(max_examples=examples(150))
@given(tables())
def test_the_52_cards_are_conserved_at_every_step(table):
    """ER-1.3 / ER-2.2: every card is in exactly one place (a hand, the deck, the pile, the discard, laid out)."""
    for _, _, _, state in play(*table):
        cards = all_cards(state)
        assert len(cards) == 52 and set(cards) == set(range(52))


@settings(max_examples=examples(150))
@given(tables())
def test_rebuilding_state_from_the_event_log_equals_the_live_state(table):
    """State is only a fold of events: reduce(evolve, log) equals the state decide worked on."""
    setup, chance, rng, passive = table
    log = list(er.start(setup, chance))
    live = None
    for _, _, events, after in play(setup, chance, rng, passive):
        log += events
        live = after
    rebuilt = er.initial_state(setup)
    for e in log:
        rebuilt = er.evolve(rebuilt, e)
    assert rebuilt == live


@settings(max_examples=examples(150))
@given(tables())
def test_evolve_never_changes_the_state_it_was_given(table):
    """evolve and step are pure: the state before a move is unchanged after it."""
    for before, move, _, _ in play(*table):
        if before is None:
            continue
        snapshot = before.clone()
        er.step(before, move, table[1])
        assert before == snapshot


@settings(max_examples=examples(40))
@given(tables())
def test_every_listed_legal_move_is_accepted(table):
    """legal_moves is sound: each move it lists is accepted by decide."""
    setup, chance, rng, passive = table
    for before, _, _, after in play(setup, chance, rng, passive, max_moves=120):
        legal = list(er.legal_moves(after))
        for move in rng.sample(legal, min(len(legal), 12)):
            er.decide(after, move, chance)  # raises if the list is wrong


def candidate_moves(state, rng: random.Random, count: int) -> list[dict]:
    """Random moves, legal or not: any type, any seat, cards from the seat's hand and elsewhere."""
    out = []
    for _ in range(count):
        seat = state.to_act if rng.random() < 0.8 else rng.randrange(state.n)
        kind = rng.choice(["attack", "throw_in", "beat", "concede", "pass", "claim", "take"])
        held = cards_of(state.hands[seat]) + cards_of(state.laid_out)
        pool = held if held and rng.random() < 0.85 else list(range(52))
        cards = rng.sample(pool, rng.randint(0, min(4, len(pool))))
        if cards and rng.random() < 0.05:
            cards.append(cards[0])  # a card named twice
        out.append({"seat": seat, "type": kind, "cards": cards})
    return out


@settings(max_examples=examples(40))
@given(tables())
def test_moves_outside_legal_moves_are_rejected_with_a_clause(table):
    """legal_moves is complete: any move it does not list is rejected, citing an ER clause."""
    setup, chance, rng, passive = table
    for _, _, _, state in play(setup, chance, rng, passive, max_moves=120):
        if er.outcome(state).is_over:
            break
        legal = {(m["seat"], m["type"], frozenset(m.get("cards", ()))) for m in er.legal_moves(state)}
        for move in candidate_moves(state, rng, 8):
            if move["type"] in er.CARD_MOVES | {"take"}:
                cards = move["cards"]
                listed = (move["seat"], move["type"], frozenset(cards)) in legal and len(set(cards)) == len(cards)
            else:
                move = {"seat": move["seat"], "type": move["type"]}
                listed = (move["seat"], move["type"], frozenset()) in legal
            try:
                er.decide(state, move, chance)
                accepted = True
            except RuleViolation as v:
                accepted = False
                assert CLAUSE.match(v.clause), v.clause
                assert v.reason
            assert accepted == listed, (move, state)


@settings(max_examples=examples(60))
@given(tables(), st.booleans())
def test_fold_step_in_place_gives_what_step_gives_and_leaves_an_illegal_move_unapplied(table, fixed_reshuffles):
    """fold_step (replay's in-place fold) gives step's events and state for every move, legal or not (say and show
    too), raises step's clause and reason for an illegal one and then leaves the state it was given as it was; with a
    fixed reshuffle outcome (ER-2.3, checked after the battle's end is applied) it works on a copy, as step does."""
    setup, chance, rng, passive = table
    played = chance
    if fixed_reshuffles:  # an outcome that may not fit the discard pile: ER-2.3 may refuse the battle's end
        chance = Chance(chance.seed, {"reshuffle:1": rng.sample(range(52), rng.randint(1, 40))})
    for _, _, _, state in play(setup, played, rng, passive, max_moves=250):
        if er.outcome(state).is_over:
            break
        moves = candidate_moves(state, rng, 4) + [{"seat": rng.randrange(setup.n), "type": "say", "text": "hi"}]
        moves += [{"seat": rng.randrange(setup.n), "type": "show", "cards": rng.sample(range(52), rng.randint(0, 2))}]
        moves += rng.sample(list(er.legal_moves(state)), min(3, len(list(er.legal_moves(state)))))
        for move in moves:
            try:
                want = er.step(state, move, chance)
            except RuleViolation as v:
                want = (v.clause, v.reason)
            mine = state.clone()
            try:
                events, after = er.fold_step(mine, move, chance)
                got = (events, after)
                assert after is mine or fixed_reshuffles
            except RuleViolation as v:
                got = (v.clause, v.reason)
                assert mine == state, "fold_step applied part of an illegal move"
            assert got == want, move


@settings(max_examples=examples(40))
@given(tables(), st.integers(0, 10**6))
def test_random_records_replay_and_one_corrupted_move_is_rejected_exactly_there(table, pick):
    """A random game written as a record replays without error; corrupting move k makes k the illegal one."""
    from domain.records import to_document

    setup, chance, rng, passive = table
    moves = [move for _, move, _, _ in play(setup, chance, rng, passive, max_moves=150) if move is not None]
    doc = to_document("el-royale", setup, chance.seed, {}, moves)
    clean = replay(parse(doc)).verdict()
    assert clean["illegal"] is None and clean["moves_applied"] == len(moves)
    if not moves:
        return
    k = pick % len(moves)
    wrong_seat = (moves[k]["seat"] + 1) % setup.n
    doc["moves"][k] = dict(doc["moves"][k], seat=wrong_seat)  # a move out of turn (ER-3.0)
    bad = replay(parse(doc)).verdict()
    assert bad["status"] == "illegal"
    assert bad["illegal"]["move_index"] == k and bad["illegal"]["rule"] == "ER-3.0"
    assert bad["moves_applied"] == k


@settings(max_examples=examples(30))
@given(tables())
def test_only_the_seat_to_act_may_move_and_free_moves_are_open_to_all(table):
    """ER-3.0: any other seat's play is rejected; ER-7.1/7.2: say and show are accepted from any seat."""
    setup, chance, rng, passive = table
    for _, _, _, state in play(setup, chance, rng, passive, max_moves=60):
        if er.outcome(state).is_over:
            break
        for seat in range(setup.n):
            er.decide(state, {"seat": seat, "type": "say", "text": "hello"}, chance)
            if seat != state.to_act:
                try:
                    er.decide(state, {"seat": seat, "type": "pass"}, chance)
                    raise AssertionError("a seat out of turn was allowed to pass")
                except RuleViolation as v:
                    assert v.clause == "ER-3.0"


def test_random_games_reach_every_ending():
    """The random player reaches wins, eliminations (revised) and battle-limit draws, so the properties see them."""
    seen = set()
    rng = random.Random(7)
    for i in range(400):
        n = rng.randint(2, 5)
        limit = rng.choice([None, None, 25])
        options = {"edition": rng.choice(["revised", "classic"])}
        if limit:
            options["battle_limit"] = limit
        setup = er.configure(options, [{"name": f"P{k}"} for k in range(n)])
        last = None
        for _, _, _, state in play(setup, Chance(f"{i:04x}"), rng, rng.random(), max_moves=600):
            last = state
        seen.add(er.outcome(last).result)
        if {"win", "elimination", "draw"} <= seen:
            break
    assert {"win", "elimination", "draw"} <= seen, seen


def test_fold_step_leaves_the_state_as_it_was_when_a_fixed_reshuffle_does_not_fit():
    """ER-2.3 is checked after the battle's end is applied: with a reshuffle outcome fixed that does not fit, the
    move that needs the reshuffle is refused and fold_step's state is still the state before it."""
    found = 0
    for seed in range(40):
        setup = er.configure({"edition": "revised"}, [{"name": f"P{i}"} for i in range(4)])
        chance, rng = Chance(f"{seed:04x}"), random.Random(seed)
        for before, move, events, _ in play(setup, chance, rng, 0.5, max_moves=600):
            if any(e["type"] == "reshuffled" for e in events):
                break
        else:
            continue
        unfit = Chance(chance.seed, {"reshuffle:1": [0, 0]})  # never a permutation of the discard pile
        mine = before.clone()
        with pytest.raises(RuleViolation) as refused:
            er.fold_step(mine, move, unfit)
        assert refused.value.clause == "ER-2.3" and mine == before
        found += 1
    assert found >= 5
