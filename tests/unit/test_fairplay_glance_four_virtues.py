"""The Four Virtues' glance (domain/four_virtues/glance.py), the fair-play screen's judge of a candidate move: the
cheap player plays on through the opponent's replies and the seat's next two turns' draws and melds, then the
round's points on the table are read as FV-4.2 scores them (cards in hand count nothing). Positions are stacked deals
(tests/unit/test_four_virtues_scoring.py `deal`) whose values can be counted by hand."""

from __future__ import annotations

import random

import pytest
import domain.four_virtues.determinize as det
import domain.four_virtues.glance as fvg
from domain.fairplay import perfect_information_decision, true_states
from domain.four_virtues import step
from domain.four_virtues.moves import meld_moves, plain_meld_moves
from domain.four_virtues.state import dump_state
from domain.games import spec_for
from domain.randomness import Chance
from domain.records import parse
from projections.knowledge import seat_knowledge
from tests.fairplay_players import Player, play_game
from tests.unit.test_four_virtues_scoring import cs, deal

SPEC = spec_for("four-virtues")
# seat 0 holds the run 5H-8H; seat 1 holds pairs only; the up-card is 2H; the stock is 9H, TH, then face cards only
RUNNER, PAIRS, UP, STOCK = "5H 6H 7H 8H 2S 4C 6D 8S 9C TS", "AC 3C 5C 7D 2D AS 3S 5S 7S 4D", "2H", \
    "9H TH JC QC JD QD KC KD JS QS KS"
DRAWS = {"two": {"source": "stock", "count": 2}, "one": {"source": "stock", "count": 1}, "pile": {"source": "discard"}}


def _drawing():
    return deal(RUNNER, PAIRS, UP, stock=STOCK)


def _glance_of(state, chance, move: dict, seed: int = 0) -> float:
    after = step(state, move, chance)[1]
    return SPEC.analysis.glance(after, move["seat"], random.Random(seed), chance, state)


def _game(label: str):
    """A game of heuristic bots and seat 0's (true state, move) at each of its decisions."""
    record = parse(play_game("four-virtues", label, [Player("heuristic"), Player("heuristic")]))
    states = true_states(record, {0})
    seen, decisions = seat_knowledge(record, 0)
    return record, seen, [(x, states[x.move_index]) for x in decisions if x.move_index in states]


def test_the_standing_is_each_seat_s_points_on_the_table_diamonds_doubled_and_additions_to_who_added_them():
    state, chance = _drawing()
    state = step(state, {"seat": 0, "type": "draw", **DRAWS["two"]}, chance)[1]
    state = step(state, {"seat": 0, "type": "meld", "cards": cs("5H 6H 7H")}, chance)[1]
    assert fvg.standing(state, 0) == 18.0 and fvg.standing(state, 1) == -18.0
    table = state.clone()
    table.melds = (table.melds[0]._replace(cards=table.melds[0].cards + tuple(cs("8H")), contributors=(0, 0, 0, 1)),)
    assert fvg.standing(table, 0) == 10.0  # 5 + 6 + 7 for seat 0, the added 8 for seat 1
    rich = table.clone()
    rich.melds = (table.melds[0]._replace(face=cs("KD")[0]),)
    assert fvg.standing(rich, 0) == 36.0 - 8.0  # diamonds: the owner's cards twice, the opponent's addition once


def test_a_draw_s_glance_counts_the_melds_its_cards_make_and_the_opponent_s_reply_to_them():
    state, chance = _drawing()
    values = {k: _glance_of(state, chance, {"seat": 0, "type": "draw", **d}) for k, d in DRAWS.items()}
    # two from the stock: 5H-TH is laid by seat 0 (45); one: 5H-9H (35), and seat 1 draws TH and adds it (10);
    # the pile's 2H: 5H-8H (26), and seat 1 draws 9H TH and adds both (19). The next draws are face cards.
    assert values == {"two": 45.0, "one": 25.0, "pile": 7.0}


@pytest.mark.parametrize("stock, pile", [("9H TH JC QC 4H JD QD KC KD JS QS KS", 3.0),
                                         ("9H TH JC QC JD QD KC KD 4H JS QS KS", 7.0)])
def test_a_glance_counts_the_seat_s_draws_and_melds_in_its_next_two_turns(stock, pile):
    state, chance = deal(RUNNER, PAIRS, UP, stock=stock)
    values = {k: _glance_of(state, chance, {"seat": 0, "type": "draw", **d}) for k, d in DRAWS.items()}
    # as above, and a later draw of seat 0 (its next turn's or the one after's) brings 4H, which it adds to its run
    # (4); after a draw from the pile 4H falls to seat 1 (its second reply adds it: 7 - 4) or to nobody yet
    assert values == {"two": 49.0, "one": 29.0, "pile": pile}


def test_a_glance_is_the_same_whatever_the_stream_when_no_random_discard_matters_and_reads_the_states_unchanged():
    state, chance = _drawing()
    kept = dump_state(state)
    move = {"seat": 0, "type": "draw", **DRAWS["one"]}
    after = step(state, move, chance)[1]
    after_kept = dump_state(after)
    values = {SPEC.analysis.glance(after, 0, random.Random(k), chance, state) for k in range(5)}
    assert values == {25.0}
    assert dump_state(state) == kept and dump_state(after) == after_kept


def test_a_glance_is_a_function_of_its_inputs_alone():
    _, _, decisions = _game("glance-pure")
    seen = 0
    for k, (x, state) in enumerate(decisions[:30]):
        chance = Chance(f"{k:064x}")
        after = step(state, x.move, chance)[1]
        a = SPEC.analysis.glance(after, 0, random.Random(k), chance, state)
        b = SPEC.analysis.glance(after.clone(), 0, random.Random(k), chance, state.clone())
        assert a == b
        seen += a != 0.0
    assert seen  # some decisions have melds on the table


def test_a_round_that_ends_inside_the_glance_is_worth_its_real_margin():
    state, chance = _drawing()
    state = step(state, {"seat": 0, "type": "draw", **DRAWS["two"]}, chance)[1]
    state = step(state, {"seat": 0, "type": "meld", "cards": cs("5H 6H 7H")}, chance)[1]
    final = state.clone()
    final.phase, final.stock = "final", ()
    after = step(final, {"seat": 0, "type": "done"}, chance)[1]
    assert len(after.rounds) == 1 and after.round == 2  # the next round is dealt
    assert SPEC.analysis.glance(after, 0, random.Random(0), chance, final) == 18.0
    assert SPEC.analysis.glance(after, 1, random.Random(0), chance, final) == -18.0


def test_the_screen_judges_four_virtues_by_the_glance_and_the_full_test_by_rollouts():
    state, chance = _drawing()
    move = {"seat": 0, "type": "draw", **DRAWS["two"]}
    quick = perfect_information_decision(SPEC, state, 0, move, "s", 0, 1, glance=True)
    assert [r["value"] for r in quick] == [25.0, 45.0, 7.0]  # the candidates' order: one, two, the pile
    _, _, decisions = _game("glance-rows")
    differ = 0
    for k, (x, s) in enumerate(decisions[:20]):
        a = perfect_information_decision(SPEC, s, 0, x.move, "s", k, 1, glance=True)
        b = perfect_information_decision(SPEC, s, 0, x.move, "s", k, 1)
        differ += a is not None and a != b
    assert differ


def test_a_glance_plays_less_than_half_the_moves_a_rollout_plays(monkeypatch):
    counted = {"glance": 0, "rollout": 0}

    def counting(name, inner):
        def wrapped(*args):
            counted[name] += 1
            return inner(*args)
        return wrapped

    monkeypatch.setattr(fvg, "step", counting("glance", fvg.step))
    monkeypatch.setattr(det, "step", counting("rollout", det.step))
    _, _, decisions = _game("glance-cost")
    for k, (x, state) in enumerate(decisions):
        chance = Chance(f"{k:064x}")
        after = SPEC.decider.step(state, x.move, chance)[1]
        SPEC.analysis.glance(after, 0, random.Random(k), chance, state)
        det.playout(after, 0, random.Random(k), chance, state)
    assert counted["glance"] <= fvg.REACH * len(decisions)
    assert counted["glance"] * 2 < counted["rollout"]


def test_the_rollout_player_s_plain_melds_are_the_melds_without_a_face_card_in_the_full_listing_s_order():
    _, _, decisions = _game("plain-melds")
    met = 0
    for _, state in decisions:
        s = state
        for seat in (0, 1):
            full = [m for m in meld_moves(s, seat) if "face" not in m]
            assert list(plain_meld_moves(s, seat)) == full
            met += bool(full)
    assert met


def test_the_screen_s_worlds_are_the_sampler_s_with_the_knowledge_folded_once():
    record, seen, decisions = _game("fold-once")
    a = SPEC.analysis
    for x, _ in decisions[::10]:
        folded = a.fold(record.setup, 0, seen[:x.index])
        for w in range(2):
            once = a.deal(folded, random.Random(w))
            assert dump_state(once) == dump_state(a.sample(record.setup, 0, seen[:x.index], random.Random(w)))
