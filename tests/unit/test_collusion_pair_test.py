"""The collusion screen's pair test (domain/collusion.py, docs/fairplay.md "Collusion"): the pairs tested are those
who sat together; p-values not small for an honest pair (seeded Batallion games at the screen's precision); smaller
for moves chosen with the partner's true hand than for the honest moves of the same decisions (slow: a few minutes).
"""

from __future__ import annotations


import pytest

from domain.collusion import pair_decision, pair_line, pairs_together, partner_hand
from domain.fairplay import true_states
from domain.games import spec_for
from domain.records import parse, parse_move
from domain.screening import REFER
from projections.knowledge import seat_knowledge
from tests.fairplay_players import Player, play_game, told_best

GAMES_SEEN = 6  # games of the slow test: enough for the hand-following moves to stand out at the pair test's precision


def test_the_pairs_tested_are_those_who_sat_together_each_once():
    assert pairs_together([["a", "b", "c"], ["b", "a", "d"], ["e", "f", "g"]]) == [
        ("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("e", "f"), ("e", "g"), ("f", "g")]


def _pair(players: list[Player], games: int, seed: str, oracle: int = 0, **precision) -> dict:
    """The pair test of seats 0 and 1 over seeded Batallion games between `players` (and a heuristic third seat); with
    `oracle` (worlds), each decision's move is replaced, for the test only, by the best move of an analysis told the
    partner's true hand (tests.fairplay_players.told_best), as a colluder on every decision would play it there."""
    spec = spec_for("batallion")
    verdicts = []
    for j in range(games):
        record = parse(play_game("batallion", f"{seed}|{j}", players + [Player("heuristic")]))
        states = true_states(record, {0, 1})
        for seat, partner in ((0, 1), (1, 0)):
            seen, decisions = seat_knowledge(record, seat)
            for k, x in enumerate(decisions):
                move, real = x.move, states[x.move_index]
                if oracle:
                    best = told_best(spec, record.setup, seat, seen[:x.index], {partner: partner_hand(spec, real,
                                     partner)}, move, f"oracle|{j}", k, oracle)
                    move = move if best is None else parse_move({**best, "seat": seat}, record.setup.n, spec.codec)
                r = pair_decision(spec, record.setup, seat, seen[:x.index], move, real, partner, f"unit|{j}",
                                  1000 * seat + k, **precision)
                if r is not None:
                    verdicts.append({"rank": r[0], "rank_variance": r[1], "rank_support": r[2], "game": j})
    return pair_line(("a", "b"), verdicts)


def test_an_honest_pair_of_mixed_strengths_is_not_referred():
    honest = _pair([Player("heuristic"), Player("noisy-0.1")], 4, "pair-honest")
    assert honest["decisions"] > 50 and honest["p_value"] > 0.1 and not honest["referred"]
    assert honest["threshold"] == REFER


@pytest.mark.slow
def test_moves_chosen_with_the_partner_s_hand_rank_high_where_the_same_decisions_honest_moves_do_not():
    precision = {"worlds": 4, "samples": 2, "per_hand": 4}
    honest = _pair([Player("heuristic")] * 2, GAMES_SEEN, "pair-oracle", **precision)
    cheat = _pair([Player("heuristic")] * 2, GAMES_SEEN, "pair-oracle", oracle=32, **precision)
    # measured: the honest moves 0.540 (p = 0.051), the hand-following ones 0.550 (p = 0.019) over 134 decisions; a
    # 100% colluder needs some 50 games to be referred at 1/1,000 (docs/fairplay.md "Collusion"), so this asks less
    assert cheat["p_value"] < 0.05 and cheat["rank_mean"] > honest["rank_mean"]
