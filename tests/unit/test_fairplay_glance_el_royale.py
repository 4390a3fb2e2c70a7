"""El Royale's glance (domain/el_royale/glance.py), the fair-play screen's cheap judge: the battle in progress played
out by the cheap rollout player, then a static value of how close each side is to going out (cards, distinct ranks,
the next attack); 1/0 once the game is over. Checked on positions whose values can be worked out by hand, against
what it may read (the states given, nothing else), in the screen (its rows are not the rollouts' rows) and for cost."""

from __future__ import annotations

import math
import random
import time

from domain.cards import parse_card
from domain.el_royale import determinize, glance as gl
from domain.fairplay import perfect_information_decision, true_states
from domain.games import spec_for
from domain.randomness import Chance
from domain.records import parse
from projections.knowledge import seat_knowledge
from tests.fairplay_players import Player, play_game
from tests.unit.test_el_royale_fast_positions import position

SPEC = spec_for("el-royale")
CHANCE = Chance("00ff")


def attack_position(defender_hand: str = "4D 9H TS JS"):
    """Two seats, a new battle: seat 0 attacks with KC 3D 5H 7S in hand against seat 1; the deck is 2s and 6s."""
    return position(None, ["KC 3D 5H 7S", defender_hand], deck="2C 2D 2H 2S 6C 6D", phase="attack", attacker=0,
                    defender=1, to_act=0, last_player=None)


def glance_of(before, move: dict, seat: int = 0, salt: int = 0) -> float:
    after = SPEC.decider.step(before, move, CHANCE)[1]
    return gl.glance(after, seat, random.Random(salt), CHANCE, before)


def attack(*cards: str) -> dict:
    return {"seat": 0, "type": "attack", "cards": [parse_card(c) for c in cards]}


def soft_share(mine: float, other: float) -> float:
    return 1.0 / (1.0 + math.exp((mine - other) / gl.SPREAD))


def test_an_attack_the_defender_cannot_beat_is_conceded_and_glances_better_than_one_it_beats():
    before = attack_position()
    # KC: no king and nothing above it, so seat 1 concedes and holds 5 distinct ranks; seat 0 draws a 2 (KC's
    # place), holds 3D 5H 7S 2C and attacks again (ER-3.10: the defender conceded)
    king = glance_of(before, attack("KC"))
    assert king == soft_share(4 + 4 * gl.RANK_STEP - gl.INITIATIVE, 5 + 5 * gl.RANK_STEP)
    # 3D: beaten by 4D, discarded; both draw back to four (seat 0: 2C, seat 1: 2D) and seat 1 attacks next
    three = glance_of(before, attack("3D"))
    assert three == soft_share(4 + 4 * gl.RANK_STEP, 4 + 4 * gl.RANK_STEP - gl.INITIATIVE)
    assert king > 0.5 > three


def test_the_glance_sees_the_defender_s_hand_a_king_in_it_turns_the_king_attack_into_a_beaten_one():
    unbeatable = glance_of(attack_position("4D 9H TS JS"), attack("KC"))
    beaten = glance_of(attack_position("4D 9H TS KS"), attack("KC"))  # KS beats KC (same rank, ER-3.4)
    assert beaten < 0.5 < unbeatable


def test_conceding_glances_worse_than_beating_for_the_defender():
    before = position(None, ["5H 7S 8C", "3D 9H TS JS"], deck="2C 2D 2H 2S 6C 6D", phase="defence", attacker=0,
                      defender=1, to_act=1, last_player=0, pile="3C")
    concede = glance_of(before, {"seat": 1, "type": "concede"}, seat=1)
    beat = glance_of(before, {"seat": 1, "type": "beat", "cards": [parse_card("3D")]}, seat=1)
    assert concede < 0.5 < beat


def test_a_winning_play_glances_1_for_its_side_and_0_for_the_other():
    before = position(None, ["9C 9D 9H 9S", "4D 9H TS JS"], deck="2C 2D 2H 2S", phase="attack", attacker=0,
                      defender=1, to_act=0, last_player=None)
    before.hands = (before.hands[0], before.hands[1] & ~(1 << parse_card("9H")))  # the 9H is seat 0's alone
    assert glance_of(before, attack("9C", "9D", "9H", "9S")) == 1.0
    assert glance_of(before, attack("9C", "9D", "9H", "9S"), seat=1) == 0.0


def test_a_team_s_standing_is_its_nearest_member_s_and_partners_share_it():
    state = position("ABAB", ["2C", "3C 4C 5C 6C 7C", "8C 9C TC JC QC KC", "2D 3D 4D 5D"], phase="attack",
                     attacker=1, defender=2, to_act=1, last_player=None)
    a = 1 + gl.RANK_STEP  # seat 0: one card
    b = 4 + 4 * gl.RANK_STEP  # seat 3, nearer than its partner, seat 1 (5 + 5 * RANK_STEP - INITIATIVE)
    assert gl.standing(state, 0) == gl.standing(state, 2) == soft_share(a, b)
    assert gl.standing(state, 1) == gl.standing(state, 3) == soft_share(b, a)
    assert math.isclose(gl.standing(state, 0) + gl.standing(state, 1), 1.0)


def test_the_glance_reads_only_the_states_given_and_changes_neither():
    before = attack_position()
    after = SPEC.decider.step(before, attack("5H"), CHANCE)[1]
    kept_before, kept_after = before.clone(), after.clone()
    values = {gl.glance(after.clone(), 0, random.Random(7), Chance("00ff"), before.clone()) for _ in range(3)}
    values.add(gl.glance(after, 0, random.Random(7), CHANCE, before))
    assert len(values) == 1
    assert after == kept_after and before == kept_before


def _decisions(label: str):
    record = parse(play_game("el-royale", label, [Player("heuristic"), Player("heuristic")]))
    states = true_states(record, {0})
    _, decisions = seat_knowledge(record, 0)
    return [(states[x.move_index], x.move) for x in decisions if x.move_index in states]


def test_the_screen_judges_el_royale_by_the_glance_and_its_rows_are_not_the_rollouts():
    differ = graded = analysed = 0
    for k, (state, move) in enumerate(_decisions("er-glance-rows")[:30]):
        quick = perfect_information_decision(SPEC, state, 0, move, "s", k, 1, glance=True)
        if quick is None:
            continue
        analysed += 1
        rolled = perfect_information_decision(SPEC, state, 0, move, "s", k, 1)
        differ += quick != rolled
        graded += any(0 < r["value"] < 100 for r in quick)  # a standing, not a rollout's 0 or 100
    assert analysed >= 5 and differ == analysed and graded >= analysed // 2


def test_a_glance_costs_a_small_fraction_of_a_rollout_to_the_end():
    pairs = []
    for k, (state, move) in enumerate(_decisions("er-glance-cost")[:40]):
        pairs.append((SPEC.decider.step(state, move, CHANCE)[1], state))
    t = time.process_time()
    for after, before in pairs:
        gl.glance(after, 0, random.Random(1), CHANCE, before)
    quick = time.process_time() - t
    t = time.process_time()
    for after, before in pairs:
        determinize.playout(after, 0, random.Random(1), CHANCE)
    rolled = time.process_time() - t
    assert len(pairs) >= 20 and quick * 5 < rolled
