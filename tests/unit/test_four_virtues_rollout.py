"""The Four Virtues' rollout player and the moves its analysis compares (domain/four_virtues/determinize.py, the
spec's `Analysis`), pinned as data on a stacked deal (tests/unit/test_four_virtues_scoring.py's `deal`): what a
decision's analysis shows, its candidate moves and each one's value, is made of these.

- the moves compared (`candidates`, domain/four_virtues/candidates.py): every legal move, each virtue's choices in
  full (every force, every draw, every clubs lowering), a zero force or draw grouped with the face's meld saying
  none; an owed discard all its ways when they are 12 or fewer, else not analysed (an empty list);
- the rollout player (`choose`): an owed discard, the first way listed; a draw of two from the stock when it may,
  else one, else the discard pile; the first plain meld listed, else the first addition; `done` in the final
  melding; else a random card of the hand thrown away;
- a playout (`playout`): the round the decision was in played out by that player, worth the seat's points margin
  in that round.
"""

from __future__ import annotations

import random

import domain.four_virtues as fv
from domain.cards import format_card
from domain.four_virtues import determinize as det
from domain.games import SPECS
from tests.unit.test_four_virtues_scoring import cs, deal

ANALYSIS = SPECS["four-virtues"].analysis
H0, H1 = "5H 6H 7H 8H 6S 8S 2D 9C 3C QH", "AD 3D 5D 6D 7D 8D 9D TD 7S KS"


def _listed(moves) -> list[tuple]:
    return [(m["type"], [format_card(c) for c in m.get("cards", ())],
             {k: (format_card(v) if k == "face" else v) for k, v in m.items() if k not in ("seat", "type", "cards")})
            for m in moves]


def _drawing():
    """Seat 0 (seat 1 deals) to draw: it holds the run 5H 6H 7H 8H and the faces QH (hearts); JS and 4D top the
    stock."""
    return deal(H0, H1, "KC", stock="4D JS 2C")


def _melding():
    state, chance = _drawing()
    _, state = fv.step(state, {"seat": 0, "type": "draw", "source": "stock", "count": 2}, chance)
    return state, chance


def test_a_draw_compares_every_draw_and_the_rollout_player_takes_two_from_the_stock():
    state, chance = _drawing()
    assert _listed(ANALYSIS.candidates(state, 0)) == [
        ("draw", [], {"source": "stock", "count": 1}), ("draw", [], {"source": "stock", "count": 2}),
        ("draw", [], {"source": "discard"})]
    assert det.choose(state, random.Random(0)) == {"seat": 0, "type": "draw", "source": "stock", "count": 2}


def test_the_rollout_player_takes_one_card_or_the_discard_pile_when_the_stock_holds_fewer():
    state, chance = _drawing()
    one = state.clone()
    one.stock = tuple(cs("4D"))
    assert det.choose(one, random.Random(0)) == {"seat": 0, "type": "draw", "source": "stock", "count": 1}
    none = state.clone()
    none.stock = ()
    assert det.choose(none, random.Random(0)) == {"seat": 0, "type": "draw", "source": "discard"}


def test_a_melding_turn_compares_every_meld_with_every_virtue_choice_and_every_discard():
    state, _ = _melding()
    runs = ["5H 6H 7H", "5H 6H 7H 8H", "6H 7H 8H"]
    hand = ["3C", "9C", "2D", "4D", "5H", "6H", "7H", "8H", "QH", "6S", "8S", "JS"]
    want = []
    for run in runs:
        cards = run.split()
        want += [("meld", cards, {}), ("meld", cards, {"face": "QH"})]
        want += [("meld", cards, {"face": "QH", "force": k}) for k in range(1, len(cards) + 1)]
        want += [("meld", cards, {"face": "JS"})]
        want += [("meld", cards, {"face": "JS", "draw": k}) for k in range(1, min(len(cards), len(state.stock)) + 1)]
    want += [("discard", [c], {}) for c in hand]
    assert _listed(ANALYSIS.candidates(state, 0)) == want


def test_the_rollout_player_lays_the_first_plain_meld_then_adds_then_throws_a_random_card():
    state, chance = _melding()
    assert det.choose(state, random.Random(0)) == {"seat": 0, "type": "meld", "cards": cs("5H 6H 7H")}
    _, state = fv.step(state, det.choose(state, random.Random(0)), chance)
    assert det.choose(state, random.Random(0)) == {"seat": 0, "type": "add", "meld": 0, "cards": cs("8H")}
    _, state = fv.step(state, det.choose(state, random.Random(0)), chance)
    thrown = [det.choose(state, random.Random(i)) for i in range(20)]
    assert all(m["seat"] == 0 and m["type"] == "discard" and len(m["cards"]) == 1 for m in thrown)
    assert {m["cards"][0] for m in thrown} == set(state.hands[0])  # any card of the hand, at random


def test_the_rollout_player_is_done_in_the_final_melding_when_nothing_fits():
    state, chance = _melding()
    final = state.clone()
    final.phase, final.stock = "final", ()
    final.hands = (tuple(cs("3C 9C 2D")), final.hands[1])
    assert det.choose(final, random.Random(0)) == {"seat": 0, "type": "done"}


def test_an_owed_discard_is_compared_when_it_can_be_made_twelve_ways_or_fewer():
    state, chance = _melding()
    _, one = fv.step(state, {"seat": 0, "type": "meld", "cards": cs("5H 6H 7H"), "face": cs("QH")[0], "force": 1}, chance)
    ways = ANALYSIS.candidates(one, 1)
    assert _listed(ways) == [("forced_discard", [c], {}) for c in ["AD", "3D", "5D", "6D", "7D", "8D", "9D", "TD", "7S", "KS"]]
    assert det.choose(one, random.Random(0)) == ways[0]
    _, three = fv.step(state, {"seat": 0, "type": "meld", "cards": cs("5H 6H 7H"), "face": cs("QH")[0], "force": 3}, chance)
    assert ANALYSIS.candidates(three, 1) == []  # 120 ways: not analysed
    assert det.choose(three, random.Random(0)) == {"seat": 1, "type": "forced_discard", "cards": cs("AD 3D 5D")}


def test_a_playout_is_the_round_played_out_worth_the_seats_margin_in_it():
    before, chance = _melding()
    _, after = fv.step(before, {"seat": 0, "type": "meld", "cards": cs("5H 6H 7H")}, chance)
    values = set()
    for seat in (0, 1):
        for k in range(4):
            value = ANALYSIS.playout(after, seat, random.Random(k), chance, before=before)
            s, rng = after, random.Random(k)
            while len(s.rounds) < before.round and s.outcome is None:
                s = fv.step(s, det.choose(s, rng), chance)[1]
            points = s.rounds[before.round - 1]
            assert value == float(points[seat] - points[1 - seat]) and isinstance(value, float)
            values.add(value)
    assert len(values) > 2  # the rollouts differ with their stream
    assert det.value(before, 0, before.round) == 0.0  # a round still on is worth nothing yet


def test_an_owed_discard_of_twelve_ways_is_compared_and_of_thirteen_is_not():
    state, chance = _melding()
    _, owed = fv.step(state, {"seat": 0, "type": "meld", "cards": cs("5H 6H 7H"), "face": cs("QH")[0], "force": 1}, chance)
    twelve, thirteen = owed.clone(), owed.clone()
    twelve.hands = (owed.hands[0], tuple(cs("AD 3D 5D 6D 7D 8D 9D TD 7S KS 2C 4C")))
    thirteen.hands = (owed.hands[0], tuple(cs("AD 3D 5D 6D 7D 8D 9D TD 7S KS 2C 4C 5C")))
    assert len(ANALYSIS.candidates(twelve, 1)) == 12
    assert ANALYSIS.candidates(thirteen, 1) == []


def test_a_clubs_face_is_compared_with_each_of_its_lowerings():
    """FV-3.3: every lowering the judge allows is a candidate, beside the clubs face's meld without one."""
    state, chance = deal("4H 6H 9H 7S 8S 9S 2D 3C JC KD", "AD 3D 5D 6D 7D 8D 9D TD 7C KS", "KC", stock="2S 5C 2C")
    _, state = fv.step(state, {"seat": 0, "type": "draw", "source": "stock", "count": 1}, chance)
    lowerings = [m for m in fv.legal_moves(state) if "lowered" in m]
    assert lowerings  # 4H 6H 9H with 9H lowered to a 5, ...
    listed = ANALYSIS.candidates(state, 0)
    assert [m for m in listed if "lowered" in m] == lowerings
    assert _listed(listed[:3]) == [("meld", ["7S", "8S", "9S"], {}), ("meld", ["7S", "8S", "9S"], {"face": "JC"}),
                                   ("meld", ["7S", "8S", "9S"], {"face": "KD"})]


def test_a_decision_in_the_final_melding_is_sampled():
    """FV-2.2: once the stock is out the turn is a last melding; seeded random games are played to such a decision,
    whose samples (an empty stock dealt) agree with what the seat saw."""
    from projections.knowledge import seat_knowledge
    from tests.unit.test_analysis_samplers import _check_samples, analysed, random_record

    for i in range(30):
        record, states = random_record("four-virtues", {}, [{"name": "N"}, {"name": "S"}], f"{i:04x}",
                                       random.Random(i), limit=400)
        j = next((j for j, s in enumerate(states[:-1]) if not s.stock and s.outcome is None and s.round
                  and analysed(SPECS["four-virtues"], s, record.moves[j]["seat"])), None)
        if j is not None:
            break
    else:
        raise AssertionError("no decision with an empty stock in 30 games")
    seat = record.moves[j]["seat"]
    seen, decisions = seat_knowledge(record, seat)
    _check_samples("four-virtues", record, states, seat, seen, next(k for k in decisions if k.move_index == j), "final")


def test_a_long_game_s_knowledge_is_sampled_at_its_last_decision():
    """A game to 1,000 points can run to 25 rounds and more (this seeded one: 27, 1,789 moves). The fold stands a
    placeholder for each hidden card of every round (41 a round: the opponent's ten, the stock), so it must never run
    out of them: the last decisions of both seats are sampled, and each sample shows the seat its table."""
    from projections.knowledge import seat_knowledge
    from tests.unit.test_analysis_samplers import _check_samples, random_record

    record, states = random_record("four-virtues", {"target": 1000}, [{"name": "a"}, {"name": "b"}], "beef",
                                   random.Random(5), limit=20000)
    for seat in (0, 1):
        seen, decisions = seat_knowledge(record, seat)
        assert sum(item["kind"] == "dealt" for item in seen) >= 25
        _check_samples("four-virtues", record, states, seat, seen, decisions[-1], "long", samples=2)
