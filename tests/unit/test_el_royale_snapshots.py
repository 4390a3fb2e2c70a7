"""An El Royale state as a snapshot (dump_state/load_state): JSON data of a fixed shape that loads back to an equal
state, at every kind of moment (before the deal, in a window, during an elimination's picks, after a team's win).
Written because `make mutation GAME=el-royale` found no El Royale test reaching either function (docs/mutation.md):
only the generic registry properties did."""

from __future__ import annotations

import json

import domain.el_royale as er
from domain.cards import cards_of, parse_card
from domain.rules import Outcome
from tests.support import record
from tests.unit.test_el_royale_rules import HANDS3, after
from tests.unit.test_worked_examples import ER64_PICKS, ER64_TO_ELIMINATION, er64, take


def round_trip(state):
    data = json.loads(json.dumps(er.dump_state(state)))
    loaded = er.load_state(data)
    assert loaded == state and json.loads(json.dumps(er.dump_state(loaded))) == data
    return data, loaded


def test_a_snapshot_of_the_table_before_the_deal_holds_its_setup_and_empty_hands():
    setup = er.configure({"edition": "classic", "battle_limit": 9, "auto_pass": True},
                         [{"name": "A", "team": "x"}, {"name": "B", "team": "y"}, {"name": "C", "team": "x"},
                          {"name": "D", "team": "y"}], 1, 2)
    data, loaded = round_trip(er.initial_state(setup))
    assert data == {
        "setup": {"names": ["A", "B", "C", "D"], "team_names": ["x", "y"], "team_of": [0, 1, 0, 1], "edition": "classic",
                  "battle_limit": 9, "dealer": 1, "starter": 2, "auto_pass": True},
        "revised": False, "n": 4, "hands": [0, 0, 0, 0], "shown": [0, 0, 0, 0], "deck": [], "deck_pos": 0, "discard": 0,
        "reshuffles": 0, "pile": [], "pile_mask": 0, "battles": 0, "eliminated": 0, "laid_out": 0, "laid_seat": None,
        "phase": "settle", "dealer": None, "attacker": None, "defender": None, "substitute_for": None, "to_act": None,
        "last_player": None, "passed": 0, "added_since_defender": False, "added_after_beat": False, "queue": [],
        "ended_by": None, "outcome": None}
    assert loaded.setup == setup
    assert (loaded.setup.names, loaded.setup.team_names, loaded.setup.team_of) == (("A", "B", "C", "D"), ("x", "y"),
                                                                                   (0, 1, 0, 1))
    assert loaded.hands == (0, 0, 0, 0) and loaded.shown == (0, 0, 0, 0) and loaded.queue == ()


def test_a_snapshot_without_teams_keeps_none_for_the_teams():
    setup = er.configure(None, [{"name": "A"}, {"name": "B"}])
    data, loaded = round_trip(er.initial_state(setup))
    assert data["setup"] == {"names": ["A", "B"], "team_names": None, "team_of": None, "edition": "revised",
                             "battle_limit": None, "dealer": None, "starter": None, "auto_pass": False}
    assert loaded.setup.team_names is None and loaded.setup.team_of is None and loaded.revised


def test_a_snapshot_in_a_window_holds_the_hands_the_pile_the_deck_and_what_was_shown():
    moves = [{"seat": 0, "type": "show", "cards": ["9C", "KC"]}, (0, "attack", ["5C"]), (2, "pass")]
    state = after(record(HANDS3, moves)).state
    data, loaded = round_trip(state)
    assert data["hands"] == [sum(1 << parse_card(x) for x in h) for h in
                             (["9C", "JC", "KC"], ["5D", "7D", "QD", "2S"], ["5H", "8H", "3S", "4S"])]
    assert data["shown"] == [(1 << parse_card("9C")) | (1 << parse_card("KC")), 0, 0]
    assert data["pile"] == [parse_card("5C")] and data["pile_mask"] == 1 << parse_card("5C")
    assert data["deck"] == list(state.deck) and len(data["deck"]) == 40 and data["deck_pos"] == 0
    assert (data["phase"], data["to_act"], data["passed"], data["attacker"], data["defender"]) == ("join", 0, 0b100, 0, 1)
    assert (data["last_player"], data["dealer"], data["battles"]) == (0, 0, 0)
    assert loaded.pile == (parse_card("5C"),) and loaded.deck == state.deck and loaded.top == parse_card("5C")
    assert cards_of(loaded.shown[0]) == sorted([parse_card("9C"), parse_card("KC")])


def test_a_snapshot_during_the_picks_of_an_elimination_holds_the_laid_out_cards_and_the_queue():
    state = after(er64(ER64_TO_ELIMINATION + ER64_PICKS[:1])).state  # North took, South and East to pick
    data, loaded = round_trip(state)
    assert (data["phase"], data["queue"], data["to_act"], data["laid_seat"]) == ("take", [2, 3], 2, 1)
    assert data["eliminated"] == 0b10 and data["laid_out"] == state.laid_out and data["laid_out"].bit_count() == 18
    assert data["hands"][1] == 0 and data["shown"] == [0, 0, 0, 0]  # the eliminated hand is laid out, nothing shown
    assert loaded.queue == (2, 3) and loaded.laid_seat == 1
    assert loaded.setup.team_of == (0, 1, 0, 1) and loaded.setup.team_names == ("NS", "EW")


def test_a_snapshot_of_a_team_s_win_by_elimination_holds_its_outcome():
    nine = ["2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S", "4C"]
    moves = ER64_TO_ELIMINATION + [take(0, "6C", "6D"), take(2), take(3, *nine), (2, "attack", ["9C"]),
                                   (0, "pass"), (2, "pass"), (3, "concede")]
    state = after(er64(moves)).state
    data, loaded = round_trip(state)
    assert data["outcome"] == ["elimination", [0, 2], "NS"] and data["phase"] == "over"
    assert loaded.outcome == Outcome("elimination", (0, 2), "NS") and loaded.outcome.seats == (0, 2)
    assert er.outcome(loaded) == Outcome("elimination", (0, 2), "NS")


def test_a_state_equals_only_a_state_with_the_same_fields():
    before = after(record(HANDS3, [])).state
    attacked = after(record(HANDS3, [(0, "attack", ["5C"])])).state
    assert before == before.clone() and before != attacked and attacked != before
    assert before != er.dump_state(before) and before != None  # noqa: E711


def test_after_the_picks_the_snapshot_holds_no_laid_out_cards():
    """ER-5.2: what nobody took is discarded; the next battle starts with nothing laid out under any seat."""
    state = after(er64(ER64_TO_ELIMINATION + ER64_PICKS)).state
    data, _ = round_trip(state)
    assert (data["laid_out"], data["laid_seat"], data["phase"], data["queue"]) == (0, None, "attack", [])
    assert data["discard"].bit_count() == 17 and data["eliminated"] == 0b10
