"""The analysis compares every distinct choice, or says what it cut (issue 36 part 3, docs/analysis.md).

- complete: over seeded bots' games, every legal move of the seat at a decision belongs to exactly one candidate's
  group (the spec's `key`; a move without a group is its own), no group is listed twice, and only El Royale's take
  is capped (its first MAX_TAKES groups, out of `group_count`);
- sound: two moves of one group make the same state in the decider's `step` (Four Virtues: equal; El Royale's takes:
  equal but for the suits of the cards taken of one rank; Small Battle's orderings: equal but for the seat's
  formation, which the rollout then meets in the same law);
- the move played is always among the candidates (in place of its group's candidate, or added past the cap).
"""

from __future__ import annotations

import hashlib
import random
from itertools import islice, product

import pytest

from domain.analysis import with_played
from domain.cards import RANK_MASKS, cards_of, rank_of
from domain.el_royale import candidates as er_candidates
from domain.games import SPECS
from domain.randomness import Chance
from domain.records import parse
from service.offline.simulation import make_plan, run
from tests.unit.test_el_royale_rollout import ER64_TO_ELIMINATION, _at, er64

# (game, players, options, seed); c3: an 8-player El Royale game with an elimination (seven takes, each capped)
CASES = ([("four-virtues", 2, {"target": 100}, f"c{k}") for k in range(6)]
         + [("small-battle", 2, {}, f"c{k}") for k in range(4)]
         + [("el-royale", 4, {"edition": "revised"}, "c0"), ("el-royale", 8, {"edition": "revised"}, "c3")])


def _decisions(game, players, options, seed):
    """(state, seat, move played) at each move of a seeded bots' game."""
    d = SPECS[game].decider
    record = parse(list(run(make_plan(game, players, 1, ("heuristic",), options, seed), 1))[0])
    state = d.initial_state(record.setup)
    for e in d.start(record.setup, record.chance):
        state = d.evolve(state, e)
    for move in record.moves:
        yield state, move["seat"], move
        state = d.step(state, move, record.chance)[1]


def _group(a, state, seat, move):
    group = a.key(state, seat, move) if a.key is not None else None
    return group if group is not None else repr(sorted((k, sorted(v) if k == "cards" else v) for k, v in move.items()))


def _check_complete(game, state, seat):
    spec = SPECS[game]
    a = spec.analysis
    listed = a.candidates(state, seat)
    if listed is None or listed == []:
        return listed
    legal = [m for m in spec.decider.legal_moves(state) if m["seat"] == seat]
    groups = [_group(a, state, seat, m) for m in listed]
    assert len(set(groups)) == len(groups), f"{game}: a group listed twice"
    legal_groups = {_group(a, state, seat, m) for m in legal}
    assert set(groups) <= legal_groups, f"{game}: a candidate that is no legal move"
    if game == "el-royale" and state.phase == "take":
        assert len(legal_groups) == er_candidates.group_count(state, seat)
        assert len(groups) == min(len(legal_groups), er_candidates.MAX_TAKES)
    else:
        assert set(groups) == legal_groups, f"{game}: a legal move with no candidate"
    return listed


@pytest.mark.parametrize("game, players, options, seed", CASES)
def test_every_legal_move_of_a_decision_belongs_to_exactly_one_candidate(game, players, options, seed):
    seen = 0
    for state, seat, move in _decisions(game, players, options, seed):
        if move["type"] in ("say", "show"):
            continue
        if game == "el-royale" and state.phase != "take" and seen > 40:
            continue  # every move but a take is its own candidate: a few decisions suffice
        _check_complete(game, state, seat)
        seen += 1
    assert seen


def _take_state(rng: random.Random):
    """A take decision (ER-5.2) with a random laid-out set of 2..9 cards and a random hand (room 0..8)."""
    state, _ = _at(er64(ER64_TO_ELIMINATION))
    s = state.clone()
    free = [c for c in range(52) if not any(h >> c & 1 for h in s.hands)]
    laid = rng.sample(free, rng.randint(2, 9))
    s.laid_out = sum(1 << c for c in laid)
    hand = [c for c in cards_of(s.hands[0])] + [c for c in free if c not in laid]
    hands = list(s.hands)
    hands[0] = sum(1 << c for c in hand[:rng.randint(8, 16)])
    s.hands = tuple(hands)
    return s


def test_every_take_of_random_laid_out_cards_belongs_to_exactly_one_group():
    rng = random.Random("takes")
    for _ in range(40):
        s = _take_state(rng)
        _check_complete("el-royale", s, 0)


def test_a_take_group_is_the_same_step_but_for_the_suits_of_one_rank():
    a, d = SPECS["el-royale"].analysis, SPECS["el-royale"].decider
    rng = random.Random("sound")
    chance = Chance("cd" * 16)
    checked = 0
    for _ in range(30):
        s = _take_state(rng)
        by_group: dict = {}
        for m in islice((m for m in d.legal_moves(s) if m["seat"] == 0), 2000):
            by_group.setdefault(a.key(s, 0, m), []).append(m)
        for group, moves in by_group.items():
            for m in moves[1:]:
                x, y = d.step(s, moves[0], chance)[1], d.step(s, m, chance)[1]
                for field in ("hands", "laid_out"):
                    assert _ranks(getattr(x, field)) == _ranks(getattr(y, field))
                    setattr(y, field, getattr(x, field))
                assert sorted(x.__dict__.items()) == sorted(y.__dict__.items())
                checked += 1
    assert checked > 100


def _ranks(masks):
    """Cards of each rank in each mask (a mask, or a tuple of masks)."""
    masks = masks if isinstance(masks, tuple) else (masks,)
    return [(m & RANK_MASKS[r]).bit_count() for m in masks for r in range(13)]


def test_the_take_groups_are_listed_fewest_ranks_in_part_then_fewest_cards_and_never_past_the_cap():
    rng = random.Random("cap")
    for _ in range(20):
        s = _take_state(rng)
        laid = [0] * 13
        for c in cards_of(s.laid_out):
            laid[rank_of(c)] += 1
        room = 16 - s.hands[0].bit_count()
        every = sorted((v for v in product(*(range(k + 1) for k in laid)) if sum(v) <= room),
                       key=lambda v: (sum(0 < k < n for k, n in zip(v, laid)), sum(v), [-k for k in v]))
        assert er_candidates.group_count(s, 0) == len(every)
        for limit in (1, 5, er_candidates.MAX_TAKES):
            assert er_candidates.take_groups(s, 0, limit) == every[:limit]


def test_a_virtue_choice_grouped_with_another_makes_the_same_state():
    a, d = SPECS["four-virtues"].analysis, SPECS["four-virtues"].decider
    checked = 0
    for k in range(6):
        for state, seat, move in _decisions("four-virtues", 2, {"target": 100}, f"c{k}"):
            if move["type"] != "meld":
                continue
            by_group: dict = {}
            for m in d.legal_moves(state):
                by_group.setdefault(a.key(state, seat, m), []).append(m)
            chance = Chance(hashlib.sha256(f"fv{k}".encode()).hexdigest())
            for moves in by_group.values():
                for m in moves[1:]:
                    x, y = d.step(state, moves[0], chance)[1], d.step(state, m, chance)[1]
                    assert d.dump_state(x) == d.dump_state(y), (moves[0], m)
                    checked += 1
    assert checked > 20


def test_every_ordering_meets_the_rollout_in_the_same_law():
    """Small Battle: two orderings step to the same state but for the seat's formation (and its commitment), and the
    rollout, striking positions uniformly, wins as often against either (2,000 common rollouts, within 4 standard
    errors; a rollout that struck the lowest position first would tell 2..9 from 9..2)."""
    spec = SPECS["small-battle"]
    a, d = spec.analysis, spec.decider
    state, seat, _ = next(_decisions("small-battle", 2, {}, "c1"))
    assert state.formations[seat] is None
    assert {a.key(state, seat, m) for m in d.legal_moves(state) if m["seat"] == seat} == {("arrange",)}
    assert len(a.candidates(state, seat)) == 1
    up, down = list("23456789"), list("98765432")
    chance = Chance("ab" * 16)
    x = d.step(state, {"seat": seat, "type": "arrange", "formation": up}, chance)[1]
    y = d.step(state, {"seat": seat, "type": "arrange", "formation": down}, chance)[1]
    assert [f for s, f in enumerate(x.formations) if s != seat] == [f for s, f in enumerate(y.formations) if s != seat]
    assert (x.to_act, x.pile) == (y.to_act, y.pile)
    wins = []
    for formation in (up, down):
        total = 0.0
        for k in range(2000):
            rng = random.Random(f"law|{k}")
            dealt = state.clone()
            dealt.pile = tuple(rng.sample(state.pile, len(state.pile)))  # a new shuffle each rollout (SB-1.4)
            s = d.step(dealt, {"seat": seat, "type": "arrange", "formation": formation}, chance)[1]
            other = 1 - seat
            s = d.step(s, {"seat": other, "type": "arrange", "formation": rng.sample(up, 8)}, chance)[1]
            total += a.playout(s, seat, rng, Chance(hashlib.sha256(f"law|{k}".encode()).hexdigest()))
        wins.append(total / 2000)
    assert abs(wins[0] - wins[1]) < 4 * (0.25 * 2 / 2000) ** 0.5, wins


def test_the_move_played_takes_its_groups_place_or_is_added_past_the_cap():
    a = SPECS["el-royale"].analysis
    state, _ = _at(er64(ER64_TO_ELIMINATION))
    listed = a.candidates(state, 0)
    same_group = {"seat": 0, "type": "take", "cards": [14]}  # 2D: one two, the group whose candidate is 2C (card 1)
    two = next(i for i, m in enumerate(listed) if a.key(state, 0, m) == a.key(state, 0, same_group))
    out = with_played(a, state, 0, listed, same_group)
    assert len(out) == len(listed) and out[two] == same_group and listed[two] not in out
    past = {"seat": 0, "type": "take", "cards": sorted(cards_of(state.laid_out))[:15]}  # 15 cards: past the cap
    out = with_played(a, state, 0, listed, past)
    assert out == listed + [past]
    assert with_played(a, state, 0, listed, listed[3]) == listed
    fv = SPECS["four-virtues"].analysis
    for state, seat, move in _decisions("four-virtues", 2, {"target": 100}, "c0"):
        if move["seat"] == seat and fv.candidates(state, seat):
            out = with_played(fv, state, seat, fv.candidates(state, seat), move)
            assert move in out or dict(move, seat=seat) in out


def test_the_take_candidates_are_the_same_whatever_the_cards_the_seat_has_not_seen():
    """Honesty: a take's candidates read the laid-out cards (public) and the seat's room, never a hidden card, so two
    states sampled from the seat's knowledge list the same takes."""
    spec = SPECS["el-royale"]
    a = spec.analysis
    record = parse(list(run(make_plan("el-royale", 8, 1, ("heuristic",), {"edition": "revised"}, "c3"), 1))[0])
    from projections.knowledge import seat_knowledge

    checked = 0
    for seat in range(8):
        seen, decisions = seat_knowledge(record, seat)
        for x in decisions:
            if x.move["type"] != "take":
                continue
            one = a.sample(record.setup, seat, seen[:x.index], random.Random(1))
            two = a.sample(record.setup, seat, seen[:x.index], random.Random(2))
            assert one.hands != two.hands  # the hidden cards differ
            assert a.candidates(one, seat) == a.candidates(two, seat)
            checked += 1
    assert checked == 7


def test_a_takes_group_is_its_count_of_cards_of_each_rank():
    """candidates.key: a take's group is ("take", its 13 counts of cards of each rank); any other move has none."""
    state, _ = _at(er64(ER64_TO_ELIMINATION))
    take = {"seat": 0, "type": "take", "cards": [0, 13, 12]}  # cards 0 and 13 are of rank 0, card 12 of rank 12
    assert er_candidates.key(state, 0, take) == ("take", (2,) + (0,) * 11 + (1,))
    assert er_candidates.key(state, 0, {"seat": 0, "type": "take", "cards": []}) == ("take", (0,) * 13)
    assert er_candidates.key(state, 0, {"seat": 0, "type": "concede"}) is None
