"""The Four Virtues' legal_moves against brute force through `decide` (never through the enumeration's own logic).

At positions of random games, every candidate in a finite universe — draws of any count, discards, `done`,
melds of every 3- and 4-card subset of the hand with no face, each face held, each `force`/`draw` from -1
to n+1 and each lowering of each card to each rank, additions of every 1- to 3-card subset to every meld
number, every forced discard combination — is put to `decide`; the accepted ones, in canonical form (cards
sorted), must be exactly the listed ones of that universe. Larger melds and additions are checked by
random subsets of any size: `decide` accepts one exactly when it is listed.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import domain.four_virtues as fv
from domain.four_virtues.clauses import is_face
from domain.randomness import Chance
from domain.rules import RuleViolation
from tests.conftest import examples


def canonical(move: dict) -> str:
    move = dict(move)
    if "cards" in move and move["type"] != "forced_discard":
        move["cards"] = sorted(move["cards"])
    return repr(sorted(move.items()))


def accepted(state, move, chance) -> bool:
    try:
        fv.decide(state, move, chance)
        return True
    except RuleViolation:
        return False


def universe(state) -> list[dict]:
    seat = fv.to_act(state)[0]
    hand = state.hands[seat]
    if state.owed is not None:
        return [{"seat": seat, "type": "forced_discard", "cards": list(c)} for c in itertools.combinations(hand, state.owed[1])]
    out = [{"seat": seat, "type": "draw", "source": "stock", "count": k} for k in range(-1, 4)]
    out += [{"seat": seat, "type": "draw", "source": "discard"}, {"seat": seat, "type": "done"}]
    out += [{"seat": seat, "type": "discard", "cards": [c]} for c in hand]
    faces = [None] + [c for c in hand if is_face(c)]
    for size in (3, 4):
        for cards in itertools.combinations(hand, size):
            for face in faces:
                base = {"seat": seat, "type": "meld", "cards": list(cards)} | ({} if face is None else {"face": face})
                out.append(base)
                for k in range(-1, size + 2):
                    out += [{**base, "force": k}, {**base, "draw": k}]
                if face is not None and face // 13 == 0:
                    out += [{**base, "lowered": {"card": c, "rank": r}} for c in cards for r in range(13)]
    for k in range(-1, len(state.melds) + 1):
        for size in (1, 2, 3):
            out += [{"seat": seat, "type": "add", "meld": k, "cards": list(c)} for c in itertools.combinations(hand, size)]
    return out


def in_universe(move: dict) -> bool:
    if move["type"] == "meld":
        return len(move["cards"]) <= 4
    if move["type"] == "add":
        return len(move["cards"]) <= 3
    return True


def positions(seed: str, rng: random.Random, moves: int = 160):
    """States of a random game in which melds and additions are played half the time they are possible."""
    setup = fv.configure({"target": 100}, [{"name": "A"}, {"name": "B"}], None, None)
    chance = Chance(seed)
    state = fv.initial_state(setup)
    for e in fv.start(setup, chance):
        state = fv.evolve(state, e)
    for _ in range(moves):
        if state.outcome is not None:
            return
        yield state, chance
        legal = list(fv.legal_moves(state))
        plays = [m for m in legal if m["type"] in ("meld", "add")]
        move = rng.choice(plays) if plays and rng.random() < 0.5 else rng.choice(legal)
        _, state = fv.step(state, move, chance)


@settings(max_examples=examples(8, under_mutation=3), deadline=None)
@given(seed=st.binary(min_size=2, max_size=6).map(bytes.hex), play=st.integers(0, 2**32))
def test_legal_moves_are_exactly_the_moves_decide_accepts(seed, play):
    rng = random.Random(play)
    sample = [p for p in positions(seed, rng) if rng.random() < 0.1 and max(map(len, p[0].hands)) <= 12]
    for state, chance in sample[:examples(6, under_mutation=2)]:
        listed = [m for m in fv.legal_moves(state)]
        assert len({canonical(m) for m in listed}) == len(listed), "a move is listed twice"
        brute = {canonical(m) for m in universe(state) if accepted(state, m, chance)}
        assert brute == {canonical(m) for m in listed if in_universe(m)}


@settings(max_examples=15, deadline=None)
@given(seed=st.binary(min_size=2, max_size=6).map(bytes.hex), play=st.integers(0, 2**32))
def test_a_meld_or_addition_of_any_size_is_legal_exactly_when_listed(seed, play):
    rng = random.Random(play)
    for state, chance in positions(seed, rng):
        if state.owed is not None or state.phase == "draw":
            continue
        seat = state.turn
        listed = {canonical(m) for m in fv.legal_moves(state)}
        numbers = [c for c in state.hands[seat] if not is_face(c)]
        faces = [c for c in state.hands[seat] if is_face(c)]
        for _ in range(20):
            cards = rng.sample(numbers, rng.randint(0, len(numbers)))
            move = {"seat": seat, "type": "meld", "cards": cards}
            if faces and rng.random() < 0.5:
                move["face"] = rng.choice(faces)
                if move["face"] // 13 == 0 and cards and rng.random() < 0.7:
                    move["lowered"] = {"card": rng.choice(cards), "rank": rng.randrange(10)}
            if state.melds and rng.random() < 0.4:
                move = {"seat": seat, "type": "add", "meld": rng.randrange(len(state.melds)), "cards": cards}
            assert accepted(state, move, chance) == (canonical(move) in listed), move


def test_the_worst_hands_list_each_of_their_moves_once():
    """The hands that bound every real one (the whole pack: every face, every lowering) list ~20k moves, none twice.
    Their speed is bench/four_virtues_moves.py's business (docs/benchmarks.md), not a test's."""
    from bench.four_virtues_moves import WORST, worst_table

    counts = {}
    for name, hand in WORST.items():
        listed = [canonical(m) for m in fv.legal_moves(worst_table(hand))]
        assert len(set(listed)) == len(listed), name
        counts[name] = len(listed)
    assert counts == {"whole pack (52 cards)": 19_782, "40 number cards + 3 clubs faces": 11_295,
                      "2 full suits + clubs and hearts faces": 4_436}


RICH_HANDS = [
    "4H 6H 9H 7H 5H 8C 8D TH JC QH KS 2S",  # runs with a gap, a lowerable ten, a face of each virtue but diamonds
    "AC 2C 3C 5C 6C 7C 3D 3H 3S KC QC JD",  # two runs of one suit, a set of threes, two clubs faces
    "8C 8D 8H 8S TC TD 9S 9H JC KH QS AS",  # five of a kind through clubs, hearts forces, spades draws
]


def _table(hand_text: str, melds=()):
    from domain.cards import parse_card
    from domain.four_virtues.clauses import Meld

    setup = fv.configure({}, [{"name": "A"}, {"name": "B"}], 1, None)
    state = fv.initial_state(setup)
    chance = Chance("00")
    for e in fv.start(setup, chance):
        state = fv.evolve(state, e)
    state = state.clone()
    hand = tuple(sorted(parse_card(c) for c in hand_text.split()))
    rest = [c for c in range(52) if c not in hand]
    state.hands, state.turn, state.phase = (hand, tuple(rest[:10])), 0, "play"
    state.stock, state.discard = tuple(rest[10:13]), (rest[13],)
    state.melds = tuple(Meld(tuple(parse_card(c) for c in cards.split()), None, 1, (1,) * len(cards.split()), low, len(cards.split()))
                        for cards, low in melds)
    return state, chance


def test_legal_moves_match_brute_force_on_hands_rich_in_virtues():
    from domain.cards import parse_card

    melds = [("5S 5D 5C", None), ("6D 7D 8D", None), ("AD 2D 9D", (parse_card("9D"), 2))]  # a set, a run, A-2-(9 as 3)
    for hand in RICH_HANDS:
        state, chance = _table(hand, melds)
        listed = list(fv.legal_moves(state))
        brute = {canonical(m) for m in universe(state) if accepted(state, m, chance)}
        assert brute == {canonical(m) for m in listed if in_universe(m)}, hand


def _judged(state) -> list[dict]:
    """The brute-force universe of the seat to act, and every move type offered by the other seat and out of step."""
    actor = fv.to_act(state)[0]
    wrong = [{"seat": seat, "type": "forced_discard", "cards": list(state.hands[seat][:1])} for seat in range(2)]
    wrong += [{"seat": seat, "type": "draw", "source": "stock", "count": 1} for seat in range(2)]
    wrong += [{"seat": seat, "type": "discard", "cards": list(state.hands[seat][:1])} for seat in range(2)]
    wrong += [{"seat": 1 - actor, "type": "meld", "cards": list(state.hands[1 - actor][:3])},
              {"seat": 1 - actor, "type": "done"}]
    return universe(state) + wrong


@settings(max_examples=examples(8, under_mutation=3), deadline=None)
@given(seed=st.binary(min_size=2, max_size=6).map(bytes.hex), play=st.integers(0, 2**32))
def test_one_judge_lists_the_moves_and_refuses_the_rest(seed, play):
    """`legality.refusal` is the one statement of the rules: a move is listed exactly when it finds nothing against
    it, and `decide` raises exactly what it finds (clause and reason) or accepts the move."""
    from domain.four_virtues.legality import refusal

    rng = random.Random(play)
    sample = [p for p in positions(seed, rng) if rng.random() < 0.1 and max(map(len, p[0].hands)) <= 12]
    for state, chance in sample[:examples(5, under_mutation=2)]:
        listed = list(fv.legal_moves(state))
        assert all(refusal(state, m) is None for m in listed)
        listed_keys = {canonical(m) for m in listed}
        for move in _judged(state):
            refused = refusal(state, move)
            if in_universe(move) and move["seat"] == fv.to_act(state)[0]:
                assert (refused is None) == (canonical(move) in listed_keys), move
            try:
                fv.decide(state, move, chance)
                raised = None
            except RuleViolation as e:
                raised = (e.clause, e.reason)
            assert raised == (None if refused is None else (refused.clause, refused.reason)), move
