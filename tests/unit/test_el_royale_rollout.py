"""El Royale's rollout player and the moves its analysis compares (domain/el_royale/determinize.py, the spec's
`Analysis`), pinned as data on the rulebook's worked examples (tests/unit/test_worked_examples.py): what a decision's
analysis shows, its candidate moves and each one's value, is made of these.

- the moves compared (`candidates`): every legal move, but a take (ER-5.2) is compared as taking nothing and as
  each single laid-out card (when the seat has room);
- the rollout player (`choose`): in a join or reinforce window, nothing of the top card's rank: pass, else throw in
  what it holds of it; never claims; attacks with the rank it holds fewest of (ties at random); beats with a play
  that wins (ER-4.1) when it has one, else with the beat that leaves fewest cards of its rank behind, the lowest
  rank among equals, else concedes; takes nothing;
- a playout (`playout`): the game played to its end by that player, worth 1 when the seat's side won, else 0;
  the shared memo (`Analysis.memo`) changes no value;
- the sampler after an elimination whose unpicked laid-out cards are discarded just before a reshuffle (ER-5.2,
  ER-2.3): they are in the new deck.
"""

from __future__ import annotations

import random

import domain.el_royale as er
from domain.cards import format_card
from domain.el_royale import determinize as det
from domain.games import SPECS
from domain.records import parse
from tests.support import record
from tests.unit.test_worked_examples import (EX1_HANDS, EX1_MOVES, EX2_HANDS, EX2_OPEN, EX3_HANDS, EX3_OPEN,
                                             EX6_DRAWS, EX6_EIGHTS, EX6_HANDS, EX6_OPEN, ER64_TO_ELIMINATION, TEAMS_4,
                                             er64)

ANALYSIS = SPECS["el-royale"].analysis


def _at(doc: dict):
    """The state a stacked record's moves lead to, through the decider's step; and the record's chance."""
    rec = parse(doc)
    state = er.initial_state(rec.setup)
    for e in er.start(rec.setup, rec.chance):
        state = er.evolve(state, e)
    for move in rec.moves:
        state = er.step(state, move, rec.chance)[1]
    return state, rec.chance


def _choices(state, tries: int = 12) -> list[tuple]:
    """choose's moves over several rollout streams, cards as names."""
    out = []
    for i in range(tries):
        m = det.choose(state, random.Random(i))
        out.append((m["seat"], m["type"], tuple(format_card(c) for c in m.get("cards", ())) if "cards" in m else None))
    return out


def test_an_attack_is_made_with_the_rank_held_fewest_of():
    state, _ = _at(er64([]))  # North: 2C 2D 2H 3C
    assert set(_choices(state)) == {(0, "attack", ("3C",))}
    state, _ = _at(er64(ER64_TO_ELIMINATION[:6]))  # South: 8C 3S 4S 5S, one of each: any, at random
    assert set(_choices(state, 24)) == {(2, "attack", (c,)) for c in ("8C", "3S", "4S", "5S")}


def test_a_window_is_passed_without_the_rank_and_joined_with_all_of_it():
    state, _ = _at(record(EX3_HANDS, EX3_OPEN[:1], edition="revised", teams=TEAMS_4))  # seat 2 holds no five
    assert set(_choices(state)) == {(2, "pass", None)}
    state, _ = _at(er64(ER64_TO_ELIMINATION[:1]))  # South holds 2S in the join window of North's twos
    assert set(_choices(state)) == {(2, "throw_in", ("2S",))}
    reinforce = EX3_OPEN + [(2, "throw_in", ["JD"]), (3, "pass")]  # revised: seat 0 holds JC JS after JH, JD
    state, _ = _at(record(EX3_HANDS, reinforce, edition="revised", teams=TEAMS_4))
    assert set(_choices(state)) == {(0, "throw_in", ("JC", "JS"))}


def test_a_defence_wins_when_it_can_else_beats_cheapest_else_concedes():
    state, _ = _at(record(EX2_HANDS, EX2_OPEN, edition="revised"))  # four queens on the top jack: a win
    assert set(_choices(state)) == {(1, "beat", ("QC", "QD", "QH", "QS"))}
    state, _ = _at(record(EX2_HANDS, EX2_OPEN, edition="classic"))  # only the queen of the top jack's suit beats
    assert set(_choices(state)) == {(1, "beat", ("QS",))}
    state, _ = _at(er64(ER64_TO_ELIMINATION[:5]))  # West's four sixes on four twos: all four break no group
    assert set(_choices(state)) == {(1, "beat", ("6C", "6D", "6H", "6S"))}
    state, _ = _at(record(EX1_HANDS, EX1_MOVES[:3]))  # 2H 3H 5S 6S against 4C: no beat
    assert set(_choices(state)) == {(1, "concede", None)}


def test_a_defence_among_beats_of_equal_cost_picks_at_random_among_all_of_them():
    """Classic (ER-3.4): each card of the top's rank beats alone; two jacks on the top jack break the same group and
    are of one rank, so they cost the same, and the rollout stream chooses between both, not always the last listed."""
    hands = [["JD", "2C", "3C", "4C"], ["JC", "JH", "5S", "6S"], ["5H", "6H", "7H", "8H"]]
    state, _ = _at(record(hands, [(0, "attack", ["JD"]), (2, "pass"), (0, "pass")], edition="classic"))
    assert set(_choices(state, 24)) == {(1, "beat", ("JC",)), (1, "beat", ("JH",))}


def test_a_claim_window_is_passed():
    moves = EX6_OPEN + EX6_EIGHTS["revised"] + [(2, "pass"), (0, "pass")]  # the reinforce window, then the claim
    state, _ = _at(record(EX6_HANDS, moves, edition="revised", deck_top=EX6_DRAWS))
    assert state.phase == "claim"
    assert {(seat, kind) for seat, kind, _ in _choices(state)} == {(state.to_act, "pass")}


def test_the_picks_compare_one_take_per_rank_count_whole_ranks_first_and_the_player_takes_nothing():
    state, _ = _at(er64(ER64_TO_ELIMINATION))  # West eliminated: North picks first among 20 laid-out cards
    listed = ANALYSIS.candidates(state, 0)  # ranks 2..6, four of each; room for 15
    assert listed[0] == {"seat": 0, "type": "take", "cards": []}
    whole = [sorted({format_card(c)[0] for c in m["cards"]}) for m in listed[1:1 + 5 + 10 + 10]]
    assert all(len(m["cards"]) == 4 * len(ranks) for m, ranks in zip(listed[1:], whole))  # whole ranks: 1, 2, 3
    assert [len(r) for r in whole] == [1] * 5 + [2] * 10 + [3] * 10
    assert [sorted(format_card(c) for c in m["cards"]) for m in listed[26:28]] == [["2C"], ["3C"]]  # then one in part
    assert len(listed) == 48 and len({ANALYSIS.key(state, 0, m) for m in listed}) == 48  # capped, no group twice
    assert set(_choices(state)) == {(0, "take", ())}
    state, _ = _at(er64([]))
    assert ANALYSIS.candidates(state, 0) is None  # anything but a take: every legal move


def _played_out(state, seat, rng, chance) -> float:
    s = state
    while s.outcome is None:
        s = er.step(s, det.choose(s, rng), chance)[1]
    o = s.outcome
    return 1.0 if o.result != "draw" and seat in o.seats else 0.0


def test_a_playout_is_the_game_played_to_its_end_worth_a_win_of_the_seats_side():
    state, chance = _at(record(EX3_HANDS, EX3_OPEN, edition="revised", teams=TEAMS_4))
    values = []
    for k in range(6):
        for seat in range(4):
            memo: dict = {}
            value = ANALYSIS.playout(state, seat, random.Random(k), chance)
            assert value == _played_out(state, seat, random.Random(k), chance)
            assert ANALYSIS.playout(state, seat, random.Random(k), chance, memo=memo) == value  # the memo: same value
            assert ANALYSIS.playout(state, seat, random.Random(k), chance, memo=memo) == value  # from the memo
            values.append(value)
        assert values[-4] == values[-2] and values[-3] == values[-1]  # partners win together (ER-4.2)
    assert set(values) == {0.0, 1.0}
    state, chance = _at(record(EX2_HANDS, EX2_OPEN + [(1, "beat", ["QC", "QD", "QH", "QS"])], edition="revised"))
    assert [ANALYSIS.playout(state, seat, random.Random(0), chance) for seat in range(3)] == [0.0, 1.0, 0.0]


def test_a_draw_is_worth_nothing():
    state, chance = _at(record(EX1_HANDS, EX1_MOVES[:4], options={"battle_limit": 1}))
    assert state.outcome is not None and state.outcome.result == "draw"
    assert [det.value(state, seat) for seat in range(3)] == [0.0, 0.0, 0.0]


def test_a_defender_down_to_one_card_that_beats_plays_it():
    """A beat that empties the hand is checked for a win (ER-4.1) before the cost rule: with one card left, the check
    reads that card alone (no second card to read), and the beat is played."""
    from domain.cards import parse_card

    state, _ = _at(record(EX2_HANDS, EX2_OPEN, edition="classic"))  # only the queen of spades beats the top jack
    one = state.clone()
    one.hands = tuple(1 << parse_card("QS") if seat == one.to_act else h for seat, h in enumerate(one.hands))
    assert set(_choices(one)) == {(one.to_act, "beat", ("QS",))}


def test_a_decision_just_before_a_reshuffle_is_analysed_through_it():
    """ER-2.3: the analysis's rollouts run the current battle to its end before the shared memo's key (the next
    attack), and that end can empty the deck and reshuffle the discard pile, which draws from the sample's chance:
    seed 0000's seat 0, decision 601, three events before the reshuffle."""
    from domain.analysis import analyse_decision
    from projections.knowledge import seat_knowledge
    from tests.unit.test_analysis_samplers import random_record, tables

    options, players = tables("el-royale")[0]
    record, _ = random_record("el-royale", options, players, "0000", random.Random(0), limit=600)
    seen, decisions = seat_knowledge(record, 0)
    reshuffle = next(i for i, item in enumerate(seen) if item["kind"] == "reshuffled")
    decision = next(d for d in decisions if d.index == 601)
    assert decision.index < reshuffle <= decision.index + 3
    line = analyse_decision(SPECS["el-royale"], record.setup, 0, seen[:decision.index], decision.move, "reshuffle",
                            0, samples=4)
    assert line is not None and len(line["moves"]) >= 2


def test_laid_out_cards_discarded_just_before_a_reshuffle_are_shuffled_into_the_new_deck():
    """ER-5.2 then ER-2.3: the eliminated seat's laid-out cards nobody took go to the discard pile, and when the next
    battle's replenishing then empties the deck, the reshuffle takes them with the rest of the pile. A sample after
    that reshuffle holds exactly the real game's cards and shows the seat its own table: seed 000d (5 seats), whose
    picks end at move 1048 with the deck too short for the draws that follow."""
    import random as random_module

    from projections.knowledge import seat_knowledge
    from tests.unit.test_analysis_samplers import _check_samples, analysed, random_record, tables

    options, players = tables("el-royale")[3]
    game, rng = SPECS["el-royale"], random_module.Random(13)
    rec, states = random_record("el-royale", options, players, "000d", rng, limit=1060)
    kinds = [(index, e["type"]) for index, move in enumerate(rec.moves)
             for e in game.decider.step(states[index], move, rec.chance)[0]]
    at = next(i for i, (_, kind) in enumerate(kinds) if kind == "laid_out_discarded")
    after = [kind for _, kind in kinds[at + 1:] if kind != "drew"]
    assert after[0] == "reshuffled", "the seeded game no longer reshuffles right after the picks"
    j = next(j for j in range(kinds[at][0] + 1, len(rec.moves))
             if analysed(game, states[j], rec.moves[j]["seat"]) and rec.moves[j]["type"] not in ("say", "show"))
    seat = rec.moves[j]["seat"]
    seen, decisions = seat_knowledge(rec, seat)
    k = next(k for k in decisions if k.move_index == j)
    _check_samples("el-royale", rec, states, seat, seen, k, "laid-out then reshuffled")
