"""Small Battle's analysis sampler and rollout player (domain/small_battle/determinize.py, the spec's `Analysis`)
beyond what tests/unit/test_analysis_samplers.py holds for every game:

- the enemy formation is drawn uniformly among the orderings of 2..9 that fit what the seat's strikes showed (a
  removal: a rank below the strike's number; a hold: a rank at least the number; an Ace's reveal: the rank): at a
  decision after strikes that leave few orderings (counted over all 40,320), over many samples from fixed seeds,
  each ordering's count is tested by a chi-square goodness-of-fit against an equal share (p < 1e-6);
- an arrangement is one candidate (40,320 orderings, one group: `key`), a legal arrangement of the seat, so it is not
  analysed and the arrangement played takes its place; every strike is analysed;
- a playout strikes a random remaining enemy position for each seat in turn until someone wins, worth 1 for the
  winner.
"""

from __future__ import annotations

import itertools
import random

import pytest

from domain.cards import parse_card
from domain.games import SPECS
from domain.records import parse, to_document
from domain.small_battle.clauses import removes, strike_value
from domain.small_battle.codec import RANKS
from projections.knowledge import seat_knowledge
from tests.unit.test_analysis_samplers import P_FAIL, chi_square_sf
from tests.unit.test_registry_properties import play, tables

GAME = "small-battle"
ANALYSIS = SPECS[GAME].analysis
SAMPLES = 1200


def _game(seed: int):
    d = SPECS[GAME].decider
    options, players = tables(GAME)[0]
    setup, chance, moves, states, _ = play(d, options, players, f"{seed:04x}", random.Random(seed))
    return parse(to_document(GAME, setup, f"{seed:04x}", {}, moves)), states, chance


def _fits(seen: list[dict], seat: int):
    """Whether an enemy ordering fits every strike the seat made (SB-2.2, SB-2.3), read from the seat's knowledge."""
    strikes = [(it["data"]["position"], parse_card(it["data"]["card"]), it["data"]) for it in seen
               if it["kind"] == "struck" and it["data"]["seat"] == seat]

    def fits(ordering) -> bool:
        for position, card, data in strikes:
            rank = ordering[position]
            if strike_value(card) is None:
                if rank != int(data["rank"]):
                    return False
            elif removes(card, rank) != (data["result"] == "removed"):
                return False
        return True
    return fits, strikes


def test_the_enemy_formation_is_uniform_among_the_orderings_that_fit_the_strikes():
    """At a decision of seat 0 whose strikes leave between 6 and 120 orderings of the enemy formation, each ordering
    is sampled about as often as any other: a chi-square over the orderings (p < 1e-6)."""
    for seed in range(60):
        record, _, _ = _game(seed)
        seen, decisions = seat_knowledge(record, 0)
        for k in decisions:
            fits, strikes = _fits(seen[:k.index], 0)
            orderings = [o for o in itertools.permutations(range(2, 10)) if fits(o)]
            if 6 <= len(orderings) <= 120:
                break
        else:
            continue
        break
    else:
        raise AssertionError("no decision whose strikes leave 6 to 120 orderings in 60 games")
    counts = dict.fromkeys(orderings, 0)
    enemy = 1
    for i in range(SAMPLES):
        formation = ANALYSIS.sample(record.setup, 0, seen[:k.index], random.Random(f"formation|{i}")).formations[enemy]
        assert formation in counts, f"a sampled formation {formation} contradicts the seat's strikes {strikes}"
        counts[formation] += 1
    expected = SAMPLES / len(orderings)  # 10 or more
    statistic = sum((n - expected) ** 2 / expected for n in counts.values())
    p_value = chi_square_sf(statistic, len(orderings) - 1)
    assert p_value >= P_FAIL, (f"{len(orderings)} orderings: chi-square {statistic:.1f} on {len(orderings) - 1} "
                               f"degrees of freedom, p = {p_value:.2e}")


def test_a_sample_at_every_decision_holds_the_real_drawn_card_own_formation_and_removals_arrangement_included():
    """At every decision of either seat, the arrangement too (not analysed, but `sample` is the spec's and may be
    asked there), the sampled state holds what the real one held that the seat saw: the drawn card (none before the
    first draw), its own formation, each side's removed positions, the seat to act."""
    record, states, _ = _game(4)
    for seat in (0, 1):
        seen, decisions = seat_knowledge(record, seat)
        assert decisions[0].move["type"] == "arrange"
        for i, d in enumerate(decisions):
            real = states[d.move_index]
            got = ANALYSIS.sample(record.setup, seat, seen[:d.index], random.Random(f"drawn|{i}"))
            assert (got.drawn, got.formations[seat], got.removed, got.to_act) == (
                real.drawn, real.formations[seat], real.removed, real.to_act), (seat, i)


def test_an_arrangement_is_one_candidate_so_not_analysed_and_a_strike_is():
    record, states, _ = _game(1)
    assert len(ANALYSIS.candidates(states[0], 0)) == 1  # nobody has arranged yet: every ordering is one group
    striking = next(s for s in states if s.arranged and s.outcome is None)
    assert ANALYSIS.candidates(striking, striking.to_act) is None


def test_the_arrangement_candidate_is_a_legal_arrangement_of_the_seat_and_the_group_of_every_arrangement():
    """The one candidate of an arrangement is a move the seat may play (the decider accepts it), and `key` puts
    every arrangement of the seat in its group and no strike, so the arrangement played takes its place
    (domain.analysis.with_played)."""
    from domain.analysis import with_played

    d = SPECS[GAME].decider
    _, states, chance = _game(3)
    for seat in (0, 1):
        (candidate,) = ANALYSIS.candidates(states[0], seat)
        assert candidate["seat"] == seat and candidate["type"] == "arrange"
        events, after = d.step(states[0], candidate, chance)
        assert after.formations[seat] is not None and events
        played = {"type": "arrange", "formation": [str(r) for r in reversed(RANKS)]}
        assert ANALYSIS.key(states[0], seat, dict(played, seat=seat)) == ANALYSIS.key(states[0], seat, candidate)
        assert with_played(ANALYSIS, states[0], seat, [candidate], played) == [dict(played, seat=seat)]
    striking = next(s for s in states if s.arranged and s.outcome is None)
    strike = next(m for m in d.legal_moves(striking) if m["type"] == "strike")
    assert ANALYSIS.key(striking, strike["seat"], strike) is None  # a strike is its own group


def test_an_enemy_formation_the_strikes_pin_down_is_sampled_and_one_no_ordering_fits_is_refused_by_name():
    """When what the seat saw leaves one ordering (every rank revealed or bounded to one value), the sample is that
    ordering, every time; bounds no ordering meets (a knowledge that contradicts itself) raise a ValueError that says
    so, never a wrong formation."""
    from domain.small_battle.determinize import _formation

    pinned = [5, 2, 9, 7, 3, 8, 4, 6]
    for k in range(20):
        assert _formation(pinned, pinned, random.Random(k)) == tuple(pinned)
    # seven positions pinned, the last bounded to what is left: still one ordering
    assert _formation(pinned[:7] + [2], pinned[:7] + [9], random.Random(0)) == tuple(pinned)
    with pytest.raises(ValueError, match="^no formation fits what the seat saw$"):
        _formation([9, 9] + [2] * 6, [9, 9] + [8] * 6, random.Random(0))  # positions 0 and 1 both the 9
    with pytest.raises(ValueError, match="^no formation fits what the seat saw$"):
        _formation([2] * 8, [8] * 8, random.Random(0))  # eight positions, seven ranks (2..8) allowed


def test_a_playout_strikes_random_remaining_positions_until_a_win_worth_one_to_the_winner():
    record, states, chance = _game(2)
    d = SPECS[GAME].decider
    start = next(s for s in states if s.arranged and s.outcome is None)
    values = set()
    for k in range(8):
        for seat in (0, 1):
            value = ANALYSIS.playout(start, seat, random.Random(k), chance)
            s, rng = start, random.Random(k)
            while s.outcome is None:
                striker = s.to_act
                s = d.step(s, {"seat": striker, "type": "strike", "position": rng.choice(s.remaining(1 - striker))},
                           chance)[1]
            assert value == (1.0 if seat in s.outcome.seats else 0.0)
            values.add((k, seat, value))
    assert {v for _, _, v in values} == {0.0, 1.0}
    assert all(sum(v for kk, _, v in values if kk == k) == 1.0 for k in range(8))  # one winner a game
