"""What El Royale tells the record and the views about each event, as data: the clause that decided it (`clause_of`),
the move it records (`move_of`), who it shows which cards to (`disclosed`), the random steps it fixed (`chance_of`),
its stored form (`encode_event`/`decode_event`), who may act (`to_act`) and the pass the service may make for a seat
(`forced_pass`). Written because `make mutation GAME=el-royale` found no El Royale test reaching these functions
(docs/mutation.md): only the generic registry properties and the service's tests did."""

from __future__ import annotations

import pytest

import domain.el_royale as er
from domain.cards import PACK, parse_card
from domain.el_royale import clauses
from tests.support import record
from tests.unit.test_el_royale_rules import BEAT, HANDS3, REINFORCE, after


def c(text: str) -> int:
    return parse_card(text)


def cs(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


# -- clause_of: the clause behind every event ---------------------------------------------------------------------


@pytest.mark.parametrize("event, clause", [
    ({"type": "dealt"}, "ER-2.1"), ({"type": "battle_started"}, "ER-3.10"), ({"type": "attacked"}, "ER-3.1"),
    ({"type": "threw_in"}, "ER-3.7"), ({"type": "beat"}, "ER-3.4"), ({"type": "passed"}, "ER-3.3"),
    ({"type": "conceded"}, "ER-3.5"), ({"type": "claimed"}, "ER-3.8"), ({"type": "pile_discarded"}, "ER-3.8"),
    ({"type": "drew"}, "ER-3.9"), ({"type": "reshuffled"}, "ER-2.3"), ({"type": "eliminated"}, "ER-5.1"),
    ({"type": "took"}, "ER-5.2"), ({"type": "laid_out_discarded"}, "ER-5.2"), ({"type": "showed"}, "ER-7.2"),
    ({"type": "said"}, "ER-7.1"), ({"type": "drawn"}, "ER-4.4"),
    ({"type": "won", "by": "win"}, "ER-4.1"), ({"type": "won", "by": "elimination"}, "ER-4.3"),
])
def test_every_event_cites_the_clause_that_decided_it(event, clause):
    assert er.clause_of(event) == clause


def test_a_game_s_events_cite_the_clauses_of_its_deal_its_battle_and_its_draws():
    r = after(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (2, "pass")]))
    assert [(e["type"], er.clause_of(e)) for e in r.events] == [
        ("dealt", "ER-2.1"), ("battle_started", "ER-3.10"), ("attacked", "ER-3.1"), ("passed", "ER-3.3"),
        ("passed", "ER-3.3"), ("beat", "ER-3.4"), ("passed", "ER-3.3"), ("passed", "ER-3.3"), ("passed", "ER-3.3"),
        ("passed", "ER-3.3"), ("pile_discarded", "ER-3.8"), ("drew", "ER-3.9"), ("drew", "ER-3.9"),
        ("battle_started", "ER-3.10")]


# -- move_of: the move a move-event records -----------------------------------------------------------------------


@pytest.mark.parametrize("event, move", [
    ({"type": "attacked", "seat": 0, "cards": cs("5C 5D")}, {"seat": 0, "type": "attack", "cards": cs("5C 5D")}),
    ({"type": "threw_in", "seat": 2, "cards": cs("5H")}, {"seat": 2, "type": "throw_in", "cards": cs("5H")}),
    ({"type": "beat", "seat": 1, "cards": cs("6C")}, {"seat": 1, "type": "beat", "cards": cs("6C")}),
    ({"type": "passed", "seat": 3}, {"seat": 3, "type": "pass"}),
    ({"type": "conceded", "seat": 1}, {"seat": 1, "type": "concede"}),
    ({"type": "claimed", "seat": 0}, {"seat": 0, "type": "claim"}),
    ({"type": "took", "seat": 2, "cards": []}, {"seat": 2, "type": "take", "cards": []}),
    ({"type": "took", "seat": 2, "cards": cs("KS AH")}, {"seat": 2, "type": "take", "cards": cs("KS AH")}),
    ({"type": "showed", "seat": 1, "cards": cs("QD")}, {"seat": 1, "type": "show", "cards": cs("QD")}),
    ({"type": "said", "seat": 0, "text": "hm"}, {"seat": 0, "type": "say", "text": "hm"}),
])
def test_each_move_event_records_the_move_that_made_it(event, move):
    got = er.move_of(event)
    assert got == move
    if "cards" in event:
        assert got["cards"] is not event["cards"]  # a copy: the record's list is not the event's


@pytest.mark.parametrize("event", [
    {"type": "dealt", "dealer": 0, "starter": 0, "order": list(PACK)}, {"type": "battle_started", "attacker": 0,
    "defender": 1, "substitute_for": None}, {"type": "pile_discarded"}, {"type": "drew", "seat": 0, "card": 3},
    {"type": "reshuffled", "k": 1, "order": [3]}, {"type": "eliminated", "seat": 1}, {"type": "laid_out_discarded"},
    {"type": "won", "by": "win", "seats": [0], "team": None}, {"type": "drawn", "battles": 4},
])
def test_an_automatic_step_records_no_move(event):
    assert er.move_of(event) is None


def test_replaying_the_moves_of_a_game_s_events_gives_back_its_record_moves():
    moves = [{"seat": 0, "type": "show", "cards": ["5C", "KC"]}, {"seat": 1, "type": "say", "text": "hi"},
             (0, "attack", ["5C"]), (2, "pass"), (0, "pass"), (1, "concede")]
    doc = record(HANDS3, moves)
    r = after(doc)
    recorded = [er.format_move(m) for e in r.events if (m := er.move_of(e)) is not None]
    assert recorded == doc["moves"]


# -- disclosed: who sees which card ---------------------------------------------------------------------------------


def test_the_deal_shows_each_seat_its_own_four_cards_dealt_clockwise_from_the_dealer():
    setup = er.configure({}, [{"name": "A"}, {"name": "B"}, {"name": "C"}])
    state = er.initial_state(setup)
    order = list(range(51, -1, -1))  # the pack backwards: card 51 goes first, to the dealer
    private, public = er.disclosed(state, {"type": "dealt", "dealer": 2, "starter": 0, "order": order})
    assert private == {2: [51, 48, 45, 42], 0: [50, 47, 44, 41], 1: [49, 46, 43, 40]} and public == []
    private, _ = er.disclosed(state, {"type": "dealt", "dealer": 0, "starter": 0, "order": order})
    assert private == {0: [51, 48, 45, 42], 1: [50, 47, 44, 41], 2: [49, 46, 43, 40]}


def test_a_draw_shows_the_card_to_the_drawer_only():
    state = after(record(HANDS3, [])).state
    assert er.disclosed(state, {"type": "drew", "seat": 2, "card": c("QS")}) == ({2: [c("QS")]}, [])


@pytest.mark.parametrize("kind", ["attacked", "threw_in", "beat", "showed"])
def test_a_play_or_a_show_shows_its_cards_to_everybody(kind):
    state = after(record(HANDS3, [])).state
    event = {"type": kind, "seat": 0, "cards": cs("5C 9C")}
    private, public = er.disclosed(state, event)
    assert (private, public) == ({}, cs("5C 9C")) and public is not event["cards"]


def test_an_eliminated_hand_is_laid_out_in_view_of_everybody():
    state = after(record(HANDS3, [])).state
    assert er.disclosed(state, {"type": "eliminated", "seat": 1}) == ({}, sorted(cs("5D 7D QD 2S")))


@pytest.mark.parametrize("event", [
    {"type": "reshuffled", "k": 1, "order": cs("AC 2C")}, {"type": "claimed", "seat": 0}, {"type": "conceded", "seat": 1},
    {"type": "took", "seat": 0, "cards": cs("5D")}, {"type": "passed", "seat": 0}, {"type": "pile_discarded"},
    {"type": "said", "seat": 0, "text": "x"}, {"type": "battle_started", "attacker": 0, "defender": 1,
                                               "substitute_for": None},
])
def test_a_reshuffle_a_pile_taken_back_a_pick_and_an_answer_show_nothing_new(event):
    state = after(record(HANDS3, [])).state
    assert er.disclosed(state, event) == ({}, [])


# -- chance_of: the random steps an event fixed ------------------------------------------------------------------


def test_the_deal_fixes_the_deal_order_the_dealer_and_the_starter():
    order = list(reversed(PACK))
    event = {"type": "dealt", "dealer": 2, "starter": 1, "order": order}
    got = er.chance_of(event)
    assert got == {"deal": order, "dealer": 2, "starter": 1} and got["deal"] is not order
    assert er.chance_of({"type": "dealt", "dealer": 0, "order": order}) == {"deal": order, "dealer": 0}


def test_each_reshuffle_fixes_its_own_numbered_outcome():
    order = cs("9H 2C")
    got = er.chance_of({"type": "reshuffled", "k": 3, "order": order})
    assert got == {"reshuffle:3": order} and got["reshuffle:3"] is not order


@pytest.mark.parametrize("event", [{"type": "drew", "seat": 0, "card": 5}, {"type": "attacked", "seat": 0, "cards": [5]},
                                   {"type": "battle_started", "attacker": 0, "defender": 1, "substitute_for": None}])
def test_other_events_fix_no_random_step(event):
    assert er.chance_of(event) == {}


def test_a_replayed_record_s_chance_is_what_its_events_fixed():
    r = after(record(HANDS3, [], dealer=1, starter=2))
    fixed = {}
    for e in r.events:
        fixed.update(er.chance_of(e))
    assert fixed["dealer"] == 1 and fixed["starter"] == 2 and len(fixed["deal"]) == 52


# -- encode_event / decode_event: the stored form ----------------------------------------------------------------


@pytest.mark.parametrize("event, stored", [
    ({"type": "attacked", "seat": 0, "cards": cs("5C TD")}, {"type": "attacked", "seat": 0, "cards": ["5C", "TD"]}),
    ({"type": "drew", "seat": 1, "card": c("AS")}, {"type": "drew", "seat": 1, "card": "AS"}),
    ({"type": "reshuffled", "k": 1, "order": cs("KH 2C")}, {"type": "reshuffled", "k": 1, "order": ["KH", "2C"]}),
    ({"type": "dealt", "dealer": 0, "starter": 1, "order": cs("QC 3D")},
     {"type": "dealt", "dealer": 0, "starter": 1, "order": ["QC", "3D"]}),
    ({"type": "passed", "seat": 2}, {"type": "passed", "seat": 2}),
])
def test_an_event_is_stored_with_card_strings_and_read_back_unchanged(event, stored):
    assert er.encode_event(event) == stored
    assert er.decode_event(stored) == event


# -- to_act and the forced pass ------------------------------------------------------------------------------------


def test_the_seat_to_act_is_the_only_one_that_may_move_and_nobody_once_the_game_is_over():
    r = after(record(HANDS3, [(0, "attack", ["5C"])]))
    assert er.to_act(r.state) == (2,)
    done = after(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (2, "pass")],
                        options={"battle_limit": 1}))
    assert done.state.outcome is not None and er.to_act(done.state) == ()
    before = er.initial_state(er.configure({}, [{"name": "A"}, {"name": "B"}]))
    assert er.to_act(before) == ()  # nobody before the deal
    waiting = r.state.clone()
    waiting.to_act = None
    assert er.to_act(waiting) == ()


def _offered_empty_handed(phase: str, auto_pass: bool = True):
    """Seat 2 of HANDS3 offered a window (ER-3.2 join or ER-3.6 reinforce) with no card left in hand."""
    r = after(record(HANDS3, [(0, "attack", ["5C"])], options={"auto_pass": auto_pass}))
    state = r.state.clone()
    state.hands = (state.hands[0], state.hands[1], 0)
    state.phase = phase
    return state


@pytest.mark.parametrize("phase", ["join", "reinforce"])
def test_a_seat_offered_a_window_holding_no_card_passes_automatically_under_er_3_3(phase):
    state = _offered_empty_handed(phase)
    assert state.to_act == 2
    assert er.forced_pass(state) == {"seat": 2, "type": "pass"}


def test_no_automatic_pass_without_the_option_for_a_seat_with_cards_out_of_a_window_or_after_the_end():
    assert er.forced_pass(_offered_empty_handed("join", auto_pass=False)) is None
    with_cards = after(record(HANDS3, [(0, "attack", ["5C"])], options={"auto_pass": True})).state
    assert with_cards.to_act == 2 and er.forced_pass(with_cards) is None  # a seat holding cards answers itself
    for phase in ("attack", "defence", "claim", "take"):
        assert er.forced_pass(_offered_empty_handed(phase)) is None
    over = _offered_empty_handed("join")
    over.outcome = er.outcome(after(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (2, "pass")],
                                           options={"battle_limit": 1})).state)
    assert er.forced_pass(over) is None
    nobody = _offered_empty_handed("join")
    nobody.to_act = None
    assert er.forced_pass(nobody) is None


# -- ER-3.3 R: a window closes once every eligible seat passed since the latest card ---------------------------


def test_a_join_window_closes_only_once_every_seat_but_the_defender_passed():
    state = after(record(HANDS3, [(0, "attack", ["5C"])])).state  # seat 1 defends; 2 and 0 are offered
    assert clauses.window_eligible_mask(state) == 0b101
    assert not clauses.window_closed(state)
    state = state.clone()
    state.passed = 0b100
    assert not clauses.window_closed(state)
    state.passed = 0b101
    assert clauses.window_closed(state)


def test_the_next_eligible_seat_is_the_first_clockwise_after_the_one_that_answered_itself_last():
    state = after(record(HANDS3, [(0, "attack", ["5C"])])).state  # eligible: 0 and 2
    assert clauses.next_eligible(state, 1) == 2
    assert clauses.next_eligible(state, 2) == 0
    assert clauses.next_eligible(state, 0) == 2
    nobody = state.clone()
    nobody.eliminated = 0b101  # a table where nobody is offered
    assert clauses.next_eligible(nobody, 0) is None


@pytest.mark.parametrize("n", range(2, 9))
def test_the_seats_after_a_seat_go_clockwise_and_end_with_itself(n):
    after = clauses._clockwise(1)[n]  # built afresh: clauses keeps one table for the process
    assert after == tuple(tuple([*range(seat + 1, n), *range(seat + 1)]) for seat in range(n))
    assert clauses._clockwise(0)[n] == tuple(tuple([*range(seat, n), *range(seat)]) for seat in range(n))


def test_the_fold_refuses_an_event_it_does_not_know_and_names_its_type():
    state = after(record(HANDS3, [])).state
    with pytest.raises(ValueError) as e:
        er.evolve(state, {"type": "teleported", "seat": 0})
    assert str(e.value) == "unknown El Royale event type 'teleported'"


def test_a_draw_by_the_battle_limit_records_how_many_battles_ended():
    """ER-4.4 R: the game is drawn when `battle_limit` battles have ended; the event says how many."""
    r = after(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (2, "pass")],
                     options={"battle_limit": 1}))
    assert r.events[-2:] == [{"type": "pile_discarded"}, {"type": "drawn", "battles": 1}]
    assert er.clause_of(r.events[-1]) == "ER-4.4" and er.move_of(r.events[-1]) is None
