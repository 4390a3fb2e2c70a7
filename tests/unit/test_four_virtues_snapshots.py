"""A Four Virtues state as a snapshot (dump_state/load_state): JSON data of a fixed shape that loads back to an equal
state. Written because `make mutation GAME=four-virtues` found no Four Virtues test reaching either function
(docs/mutation.md): only the generic registry properties did."""

from __future__ import annotations

import json

import domain.four_virtues as fv
from domain.cards import parse_card
from domain.four_virtues.clauses import Meld
from domain.rules import Outcome
from tests.unit.test_four_virtues_rules import _melding_table, at_round_end, play
from tests.unit.test_four_virtues_scoring import cs


def round_trip(state):
    data = fv.dump_state(state)
    loaded = fv.load_state(json.loads(json.dumps(data)))
    assert loaded == state and fv.dump_state(loaded) == data
    return data, loaded


def test_a_snapshot_in_play_holds_the_hands_the_piles_the_melds_and_what_is_owed():
    state, chance = _melding_table()  # seat 0: 5H 6H 7H 8H 9H 2H 3H JC QH QS
    _, state = play(state, chance, 0, "meld", cards=cs("2H 3H 9H"), face=parse_card("JC"),
                    lowered={"card": parse_card("9H"), "rank": 3})  # A-2-3-4 with 9H as the 4
    _, state = play(state, chance, 0, "meld", cards=cs("5H 6H 7H"), face=parse_card("QH"), force=2)
    data, loaded = round_trip(state)
    assert data["setup"] == {"names": ["North", "South"], "target": 100, "dealer": 1, "starter": None}
    assert (data["n"], data["round"], data["dealer"], data["turn"], data["phase"]) == (2, 1, 1, 0, "play")
    assert data["owed"] == [1, 2] and data["scores"] == [0, 0] and data["rounds"] == [] and data["outcome"] is None
    assert data["hands"] == [cs("8H QS"), sorted(state.hands[1])] and data["discard"] == list(state.discard)
    assert data["stock"] == list(state.stock) == cs("2C 3C 4C")
    # each meld: its cards, its face, its owner, who gave each card, the lowering, how many cards it was laid with
    assert data["melds"] == [[cs("2H 3H 9H"), parse_card("JC"), 0, [0, 0, 0], [parse_card("9H"), 3], 3],
                             [cs("5H 6H 7H"), parse_card("QH"), 0, [0, 0, 0], None, 3]]
    assert loaded.melds == (Meld(tuple(cs("2H 3H 9H")), parse_card("JC"), 0, (0, 0, 0), (parse_card("9H"), 3), 3),
                            Meld(tuple(cs("5H 6H 7H")), parse_card("QH"), 0, (0, 0, 0), None, 3))
    assert loaded.owed == (1, 2) and loaded.hands == (tuple(cs("8H QS")), state.hands[1])
    assert (loaded.stock, loaded.discard, loaded.scores) == (tuple(cs("2C 3C 4C")), state.discard, (0, 0))
    assert loaded.setup == state.setup and isinstance(loaded.setup.names, tuple)


def test_a_snapshot_of_a_won_game_holds_its_rounds_and_its_outcome():
    state, chance = at_round_end((94, 0), "AS 2S 3S")
    _, state = play(state, chance, 0, "meld", cards=cs("AS 2S 3S"))
    _, state = play(state, chance, 0, "discard", cards=cs("KH"))  # the hand empties: 94 + 6 reaches 100
    data, loaded = round_trip(state)
    assert data["outcome"] == ["win", [0], [100, 0]] and data["rounds"] == [[6, 0]] and data["owed"] is None
    assert loaded.outcome == Outcome("win", (0,), None, (100, 0)) and loaded.rounds == ((6, 0),)
    assert loaded.owed is None and data["phase"] == "over"


def test_a_snapshot_of_the_table_before_the_deal_keeps_its_dealer_and_starter():
    setup = fv.configure({"target": 200}, [{"name": "A"}, {"name": "B"}], 0, 1)
    data, loaded = round_trip(fv.initial_state(setup))
    assert data["setup"] == {"names": ["A", "B"], "target": 200, "dealer": 0, "starter": 1}
    assert (loaded.setup.dealer, loaded.setup.starter) == (0, 1)
    assert data["hands"] == [[], []] and data["melds"] == [] and data["outcome"] is None
    assert (data["round"], data["dealer"], data["turn"], data["phase"], data["owed"]) == (0, None, None, "draw", None)
    assert (data["stock"], data["discard"], data["scores"], data["rounds"]) == ([], [], [0, 0], [])
