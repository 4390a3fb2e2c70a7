"""The Four Virtues' rules as data (rules/four-virtues.md): refusals with their clause and reason, the target, the
set-up and record checks. Written to kill the mutants that `make mutation GAME=four-virtues` found surviving
(docs/mutation.md)."""

from __future__ import annotations

import pytest

import domain.four_virtues as fv
from domain.cards import parse_card
from domain.randomness import Chance
from domain.rules import InvalidSetup, MalformedMove, NextDeal, Outcome, RuleViolation
from tests.unit.test_four_virtues_scoring import cs, deal  # a stacked deal: seat 0 the non-dealer (FV-1.3 R)


def at_round_end(scores, melds: str, target: int = 100):
    """Seat 0 in its final melding (the stock ran out this turn), holding `melds` and KH; seat 1 holds 9D."""
    state, chance = deal("AC 2C 3C 4C 5C 6C 7C 8C 9C TC", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD", "KS", target=target)
    state = state.clone()
    state.scores, state.stock, state.phase, state.turn = scores, (), "final", 0
    state.hands = (tuple(sorted(cs(melds) + cs("KH"))), tuple(cs("9D")))
    return state, chance


def play(state, chance, seat, kind, **fields):
    return fv.step(state, {"seat": seat, "type": kind, **fields}, chance)


def refusal(state, chance, seat, kind, **fields) -> tuple[str, str]:
    with pytest.raises(RuleViolation) as e:
        fv.decide(state, {"seat": seat, "type": kind, **fields}, chance)
    return e.value.clause, e.value.reason


# ---------------------------------------------------------------- FV-5.3, FV-4.3: reaching the target

@pytest.mark.parametrize("before, melds, reached", [
    ((94, 0), "AS 2S 3S", True),  # 94 + 6 = 100: exactly the target reaches it (FV-5.3)
    ((93, 0), "AS 2S 3S", False),  # 99
    ((94, 100), "AS 2S 3S", None),  # both at 100: a tie plays on
])
def test_a_total_equal_to_the_target_reaches_it(before, melds, reached):
    """FV-5.3: "reaches the target" is a total at least the target, checked at the end of a round."""
    state, chance = at_round_end(before, melds)
    _, state = play(state, chance, 0, "meld", cards=cs(melds))
    events, state = play(state, chance, 0, "done")
    assert events[0] == {"type": "done", "seat": 0} and fv.clause_of(events[0]) == "FV-4.1"
    assert events[1]["type"] == "round_ended" and events[1]["scores"] == [before[0] + 6, before[1]]
    if reached:
        assert events[2] == {"type": "won", "seats": [0], "scores": [100, 0]}
        assert fv.outcome(state) == Outcome("win", (0,), None, (100, 0)) and fv.to_act(state) == ()
        assert state.phase == "over" and list(fv.legal_moves(state)) == []
        assert refusal(state, chance, 1, "say", text="gg") == ("FV-4.3", "the game is over: no further moves")
    else:
        assert events[2]["type"] == "dealt" and events[2]["round"] == 2 and events[2]["dealer"] == 0
        assert fv.outcome(state) == Outcome(None, scores=state.scores) and state.round == 2


def test_the_higher_total_wins_when_both_reach_the_target_whichever_seat_it_is():
    """FV-4.3: if both reach the target the higher score wins."""
    state, chance = at_round_end((0, 120), "AS 2S 3S", target=100)
    state = state.clone()
    state.scores = (99, 120)
    _, state = play(state, chance, 0, "meld", cards=cs("AS 2S 3S"))
    events, state = play(state, chance, 0, "done")
    assert events[-1] == {"type": "won", "seats": [1], "scores": [105, 120]}


# ---------------------------------------------------------------- refusals: clause and reason

def test_a_turn_is_a_draw_then_melds_then_one_discard_by_the_seat_to_play():
    """FV-2.1, FV-2.2, FV-5.4."""
    state, chance = deal("5H 6H 7H 8H KD AC 3C 5C 7C 9C", "9H AD 2D 3D 4D 6D 7S 8S 9S TS", "KS", stock="2H 4H")
    assert refusal(state, chance, 1, "draw", source="stock", count=1) == ("FV-2.1", "not your turn: seat 0 is to play")
    assert refusal(state, chance, 0, "forced_discard", cards=cs("AC")) == ("FV-3.4", "no forced discard is owed")
    assert refusal(state, chance, 0, "discard", cards=cs("AC")) == ("FV-2.1", "a turn begins with a draw")
    assert refusal(state, chance, 0, "draw", source="stock", count=3) == ("FV-2.2", "draw one or two cards from the stock")
    assert refusal(state, chance, 0, "draw", source="stock", count=0) == ("FV-2.2", "draw one or two cards from the stock")
    assert refusal(state, chance, 0, "draw", source="discard", count=2) == ("FV-2.2", "the discard pile gives its top card only")
    events, after = play(state, chance, 0, "draw", source="discard", count=1)
    assert events == [{"type": "drew", "seat": 0, "source": "discard", "cards": cs("KS")}] and after.discard == ()
    events, state = play(state, chance, 0, "draw", source="stock", count=2)
    assert events == [{"type": "drew", "seat": 0, "source": "stock", "cards": cs("2H 4H")}]
    assert refusal(state, chance, 0, "draw", source="stock", count=1) == ("FV-2.1", "you drew already this turn")
    assert refusal(state, chance, 0, "discard", cards=cs("AC 3C")) == ("FV-2.1", "discard exactly one card")
    assert refusal(state, chance, 0, "discard", cards=cs("AS")) == ("FV-2.1", "you do not hold AS")
    assert refusal(state, chance, 0, "done") == ("FV-4.1", "done ends the round only after the stock ran out this turn")
    events, state = play(state, chance, 0, "discard", cards=cs("AC"))
    assert events == [{"type": "discarded", "seat": 0, "cards": cs("AC")}] and fv.to_act(state) == (1,)
    assert state.phase == "draw" and state.discard == tuple(cs("KS AC"))


def test_the_discard_pile_and_the_stock_give_only_what_they_hold():
    """FV-2.2 R: two cards only while the stock holds two; the discard pile only while it holds a card."""
    state, chance = deal("5H 6H 7H 8H KD AC 3C 5C 7C 9C", "9H AD 2D 3D 4D 6D 7S 8S 9S TS", "KS")
    state = state.clone()
    state.stock, state.discard = tuple(cs("2H")), ()
    assert refusal(state, chance, 0, "draw", source="stock", count=2) == ("FV-2.2", "the stock holds 1 card(s)")
    assert refusal(state, chance, 0, "draw", source="discard") == ("FV-2.2", "the discard pile is empty")
    assert list(fv.legal_moves(state)) == [{"seat": 0, "type": "draw", "source": "stock", "count": 1}]
    events, state = play(state, chance, 0, "draw", source="stock", count=1)
    assert state.phase == "final" and {"seat": 0, "type": "done"} in list(fv.legal_moves(state))


@pytest.mark.parametrize("fields, rule", [
    ({"cards": "5H 6H JH"}, ("FV-1.1", "face cards are never melded as cards (JH); use `face`")),
    ({"cards": "5H 6H JH", "face": "KD"}, ("FV-3.1", "face cards are never melded as cards (JH); use `face`")),
    ({"cards": "5H 6H 8H"}, ("FV-2.3", "a meld is three or more number cards of one rank, or in sequence in one suit (Ace low)")),
    ({"cards": "5H 6H 7H 2S"}, ("FV-2.3", "you do not hold all of those cards")),
    ({"cards": "5H 5H 6H"}, ("FV-2.3", "you do not hold all of those cards")),
    ({"cards": "5H 6H 7H", "face": "9C"}, ("FV-3.1", "9C is not a face card")),
    ({"cards": "5H 6H 7H", "face": "QD"}, ("FV-3.1", "you do not hold QD")),
    ({"cards": "5H 6H 7H", "face": "KD", "lowered": {"card": "7H", "rank": 2}},
     ("FV-3.3", "only a clubs face card lowers a card (FV-5.1)")),
    ({"cards": "5H 6H 7H", "lowered": {"card": "7H", "rank": 2}}, ("FV-3.3", "only a clubs face card lowers a card (FV-5.1)")),
    ({"cards": "5H 6H 7H", "face": "KD", "force": 0}, ("FV-3.4", "only a hearts face card forces a discard (FV-5.1)")),
    ({"cards": "5H 6H 7H", "face": "KD", "draw": 0}, ("FV-3.5", "only a spades face card draws (FV-5.1)")),
    ({"cards": "5H 6H 7H", "face": "JC", "lowered": {"card": "9C", "rank": 2}},
     ("FV-3.3", "the lowered card must be one of the meld's cards")),
    ({"cards": "5H 6H 7H", "face": "JC", "lowered": {"card": "7H", "rank": 10}},
     ("FV-3.3", "a card is lowered to a number rank, never to J, Q or K")),
    ({"cards": "5H 6H 7H", "face": "JC", "lowered": {"card": "7H", "rank": 6}},
     ("FV-3.3", "a lowering lowers by at least one rank (an Ace cannot be lowered)")),
    ({"cards": "AH 2H 3H", "face": "JC", "lowered": {"card": "AH", "rank": 0}},
     ("FV-3.3", "a lowering lowers by at least one rank (an Ace cannot be lowered)")),
    ({"cards": "AH 2H 5H", "face": "JC", "lowered": {"card": "5H", "rank": -1}},  # a "run" from below the Ace
     ("FV-3.3", "a card is never lowered below an Ace")),
    ({"cards": "AH 2H 3H 8H", "face": "JC", "lowered": {"card": "8H", "rank": -1}},
     ("FV-3.3", "a card is never lowered below an Ace")),
    ({"cards": "5H 6H 7H", "face": "QH", "force": 4}, ("FV-3.4", "name a number from 0 to 3, the meld's number cards")),
    ({"cards": "5H 6H 7H", "face": "QH", "force": -1}, ("FV-3.4", "name a number from 0 to 3, the meld's number cards")),
    ({"cards": "5H 6H 7H", "face": "QS", "draw": 4}, ("FV-3.5", "draw from 0 to 3 cards, the meld's number cards")),
    ({"cards": "5H 6H 7H", "face": "QS", "draw": -1}, ("FV-3.5", "draw from 0 to 3 cards, the meld's number cards")),
    ({"cards": "5H 6H 7H", "face": "QS", "draw": 3}, ("FV-3.5", "the stock holds 2 card(s)")),
])
def test_a_meld_and_its_virtue_are_refused_with_their_clause(fields, rule):
    """FV-1.1, FV-2.3, FV-3.1 .. FV-3.5, FV-5.1, FV-5.4."""
    state, chance = deal("5H 6H 7H 8H AH 2H 3H JC QH QS", "9H AD 2D 3D 4D 6D 7S 8S 9S TS", "KS", stock="KD JH")
    state = state.clone()
    state.hands = (tuple(sorted(state.hands[0] + tuple(cs("KD JH")))), state.hands[1])
    state.stock, state.phase = tuple(cs("2C 3C")), "play"
    move = dict(fields, cards=cs(fields["cards"]))
    if "face" in move:
        move["face"] = parse_card(move["face"])
    if "lowered" in move:
        move["lowered"] = {"card": parse_card(move["lowered"]["card"]), "rank": move["lowered"]["rank"]}
    assert refusal(state, chance, 0, "meld", **move) == rule


def _melding_table():
    state, chance = deal("5H 6H 7H 8H 9H 2H 3H JC QH QS", "9C AD 2D 3D 4D 6D 7S 8S 9S TS", "KS")
    state = state.clone()
    state.stock, state.phase = tuple(cs("2C 3C 4C")), "play"
    return state, chance


def test_a_meld_is_recorded_with_its_points_and_each_virtue_does_what_it_says():
    """FV-3.2 .. FV-3.5, FV-4.2: points, a hearts force owed, a spades draw, a clubs lowering."""
    state, chance = _melding_table()
    events, s = play(state, chance, 0, "meld", cards=cs("5H 6H 7H"), face=parse_card("QH"), force=2)
    assert events == [{"type": "melded", "seat": 0, "cards": cs("5H 6H 7H"), "face": parse_card("QH"), "lowered": None,
                       "force": 2, "points": 18, "owed": 2}]
    assert s.owed == (1, 2) and fv.to_act(s) == (1,)
    assert refusal(s, chance, 0, "discard", cards=cs("8H")) == ("FV-3.4", "seat 1 owes a forced discard of 2 first")
    assert refusal(s, chance, 1, "discard", cards=cs("9C")) == ("FV-3.4", "seat 1 owes a forced discard of 2 first")
    assert refusal(s, chance, 1, "forced_discard", cards=cs("9C")) == ("FV-3.4", "discard exactly 2 card(s)")
    assert refusal(s, chance, 1, "forced_discard", cards=cs("9C 9H")) == ("FV-3.4", "you do not hold those cards")
    assert refusal(s, chance, 1, "forced_discard", cards=cs("9C 9C")) == ("FV-3.4", "you do not hold those cards")
    assert sorted(m["cards"] for m in fv.legal_moves(s))[:2] == [cs("9C AD"), cs("9C 2D")]
    assert len(list(fv.legal_moves(s))) == 45  # every 2 of 10 cards, once each
    events, s = play(s, chance, 1, "forced_discard", cards=cs("9C AD"))
    assert events == [{"type": "forced_discarded", "seat": 1, "cards": cs("9C AD")}]
    assert s.owed is None and s.discard == tuple(cs("KS 9C AD")) and fv.to_act(s) == (0,)
    events, s = play(state, chance, 0, "meld", cards=cs("5H 6H 7H"), face=parse_card("QH"), force=0)
    assert events[0]["owed"] == 0 and s.owed is None
    events, s = play(state, chance, 0, "meld", cards=cs("5H 6H 7H"), face=parse_card("QS"), draw=2)
    assert events == [{"type": "melded", "seat": 0, "cards": cs("5H 6H 7H"), "face": parse_card("QS"), "lowered": None,
                       "draw": 2, "points": 18, "owed": 0},
                      {"type": "drew", "seat": 0, "source": "stock", "cards": cs("2C 3C"), "spades": True}]
    assert fv.clause_of(events[1]) == "FV-3.5" and fv.move_of(events[1]) is None and s.stock == tuple(cs("4C"))
    assert fv.move_of(events[0]) == {"seat": 0, "type": "meld", "cards": cs("5H 6H 7H"), "face": parse_card("QS"), "draw": 2}
    events, s = play(state, chance, 0, "meld", cards=cs("5H 6H 9H"), face=parse_card("JC"),
                     lowered={"card": parse_card("9H"), "rank": 6})
    assert events[0]["lowered"] == {"card": parse_card("9H"), "rank": 6} and events[0]["points"] == 5 + 6 + 7
    assert fv.move_of(events[0])["lowered"] == {"card": parse_card("9H"), "rank": 6}
    assert fv.final(s)["melds"] == [{"cards": ["5H", "6H", "9H"], "face": "JC", "owner": 0, "contributors": [0, 0, 0],
                                     "lowered": {"card": "9H", "rank": "7"}}]


def test_a_hearts_force_is_the_smaller_of_the_number_and_the_cards_held():
    """FV-3.4 R: the opponent owes the smaller of that number and the cards they hold."""
    state, chance = _melding_table()
    state = state.clone()
    state.hands = (state.hands[0], tuple(cs("9C")))
    events, s = play(state, chance, 0, "meld", cards=cs("5H 6H 7H"), face=parse_card("QH"), force=3)
    assert events[0]["force"] == 3 and events[0]["owed"] == 1 and s.owed == (1, 1)


def test_a_meld_that_empties_the_hand_ends_the_round_and_its_force_lapses():
    """FV-3.4 R, FV-4.1: the melder emptied the hand: the round ends at once, the force lapses."""
    state, chance = _melding_table()
    state = state.clone()
    state.hands = (tuple(cs("5H 6H 7H QH")), state.hands[1])
    events, s = play(state, chance, 0, "meld", cards=cs("5H 6H 7H"), face=parse_card("QH"), force=2)
    assert events[0]["owed"] == 0 and [e["type"] for e in events] == ["melded", "round_ended", "dealt"]
    assert events[1]["by"] == "empty" and events[1]["points"] == [18, 0] and s.owed is None


@pytest.mark.parametrize("meld, cards, rule", [
    (1, "8H", ("FV-2.4", "there is no meld 1 this round")),
    (-1, "8H", ("FV-2.4", "there is no meld -1 this round")),
    (0, "JH", ("FV-3.1", "a face card is never added to a meld (JH)")),
    (0, "", ("FV-2.4", "add at least one card")),
    (0, "TH", ("FV-2.4", "you do not hold all of those cards")),
    (0, "8H 8H", ("FV-2.4", "you do not hold all of those cards")),
    (0, "2H", ("FV-2.4", "the meld would no longer be valid")),
])
def test_an_addition_keeps_the_meld_valid_and_holds_no_face_card(meld, cards, rule):
    """FV-2.4, FV-3.1."""
    state, chance = _melding_table()
    state = state.clone()
    state.hands = (tuple(sorted(state.hands[0] + tuple(cs("JH")))), state.hands[1])
    _, state = play(state, chance, 0, "meld", cards=cs("5H 6H 7H"))
    assert refusal(state, chance, 0, "add", meld=meld, cards=cs(cards)) == rule
    events, after = play(state, chance, 0, "add", meld=0, cards=cs("8H 9H"))
    assert events == [{"type": "added", "seat": 0, "meld": 0, "cards": cs("8H 9H"), "points": 17}]
    assert fv.move_of(events[0]) == {"seat": 0, "type": "add", "meld": 0, "cards": cs("8H 9H")}
    assert fv.clause_of(events[0]) == "FV-2.4" and fv.disclosed(state, events[0]) == ({}, cs("8H 9H"))


# ---------------------------------------------------------------- the deal, records and set-up

def test_the_deal_gives_alternate_cards_starting_with_the_non_dealer_and_turns_up_the_twenty_first():
    """FV-1.3 R: the non-dealer gets positions 0, 2, .. 18, the dealer 1, 3, .. 19; 20 is turned up."""
    setup = fv.configure({}, [{"name": "A"}, {"name": "B"}], 0, None)
    order = list(range(52))
    chance = Chance("f00d", {"deal:1": order})
    (dealt,) = fv.start(setup, chance)
    assert dealt == {"type": "dealt", "round": 1, "dealer": 0, "order": order}
    assert fv.disclosed(fv.initial_state(setup), dealt) == ({1: list(range(0, 20, 2)), 0: list(range(1, 20, 2))}, [20])
    assert fv.chance_of(dealt) == {"deal:1": order, "dealer": 0}
    assert fv.chance_of({**dealt, "round": 2}) == {"deal:2": order}
    assert fv.chance_of({"type": "done", "seat": 0}) == {}
    s = fv.evolve(fv.initial_state(setup), dealt)
    assert s.hands == (tuple(range(1, 20, 2)), tuple(range(0, 20, 2))) and s.discard == (20,)
    assert s.stock == tuple(range(21, 52)) and (s.turn, s.dealer, s.round, s.phase) == (1, 0, 1, "draw")
    assert fv.clause_of(dealt) == "FV-1.3" and fv.move_of(dealt) is None
    with pytest.raises(InvalidSetup) as e:
        fv.start(setup, Chance("f00d", {"deal:1": order[:51]}))
    assert e.value.field == "outcomes"
    random_dealer = fv.configure({}, [{"name": "A"}, {"name": "B"}])
    assert fv.start(random_dealer, Chance("f00d", {"dealer": 1, "deal:1": order}))[0]["dealer"] == 1


def test_the_set_up_is_two_individuals_and_a_target_from_100_to_1000():
    """FV-1.1, FV-1.2, FV-5.4."""
    setup = fv.configure(None, [{"name": "A"}, {"name": "B"}])
    assert (setup.names, setup.target, setup.dealer, setup.starter, setup.n) == (("A", "B"), 300, None, None, 2)
    assert setup.options() == {"target": 300} and setup.players() == [{"name": "A"}, {"name": "B"}]
    for target in (100, 1000):
        assert fv.configure({"target": target}, [{"name": "A"}, {"name": "B"}], 1, 0).target == target
    assert fv.next_deal(setup, None) == NextDeal(None, None, "FV-1.2", "the first dealer is drawn from the game's seed")


@pytest.mark.parametrize("options, players, dealer, starter, field, reason", [
    ([], [{"name": "A"}, {"name": "B"}], None, None, "options", "must be an object"),
    ({"b": 1, "a": 2}, [{"name": "A"}, {"name": "B"}], None, None, "options",
     "unknown Four Virtues option(s): a, b; known: target"),
    ({"target": 99}, [{"name": "A"}, {"name": "B"}], None, None, "options.target", "must be an integer from 100 to 1000 (FV-1.2)"),
    ({"target": 1001}, [{"name": "A"}, {"name": "B"}], None, None, "options.target", "must be an integer from 100 to 1000 (FV-1.2)"),
    ({"target": True}, [{"name": "A"}, {"name": "B"}], None, None, "options.target", "must be an integer from 100 to 1000 (FV-1.2)"),
    ({"target": 150.0}, [{"name": "A"}, {"name": "B"}], None, None, "options.target", "must be an integer from 100 to 1000 (FV-1.2)"),
    ({}, [{"name": "A"}], None, None, "players", "The Four Virtues needs a list of exactly 2 players (FV-1.1)"),
    ({}, ({"name": "A"}, {"name": "B"}), None, None, "players", "The Four Virtues needs a list of exactly 2 players (FV-1.1)"),
    ({}, [{"name": "A", "team": "x"}, {"name": "B"}], None, None, "players[0].team",
     "The Four Virtues is played by two individuals: no teams (FV-5.4)"),
    ({}, [{"name": "A"}, {"name": "B"}], 2, None, "dealer", "must be a seat number, 0 or 1"),
    ({}, [{"name": "A"}, {"name": "B"}], True, None, "dealer", "must be a seat number, 0 or 1"),
    ({}, [{"name": "A"}, {"name": "B"}], None, -1, "starter", "must be a seat number, 0 or 1"),
    ({}, [{"name": "A"}, {"name": "B"}], None, "1", "starter", "must be a seat number, 0 or 1"),
])
def test_a_set_up_outside_the_rules_is_refused_naming_its_field(options, players, dealer, starter, field, reason):
    with pytest.raises(InvalidSetup) as e:
        fv.configure(options, players, dealer, starter)
    assert (e.value.field, e.value.reason) == (field, reason)


@pytest.mark.parametrize("raw, field, reason", [
    ({"type": "draw"}, "source", "a draw needs source 'stock' or 'discard'"),
    ({"type": "draw", "source": "deck"}, "source", "a draw needs source 'stock' or 'discard'"),
    ({"type": "draw", "source": "stock"}, "count", "a stock draw names its count (FV-5.2)"),
    ({"type": "draw", "source": "stock", "count": True}, "count", "must be an integer (FV-5.4)"),
    ({"type": "draw", "source": "discard", "count": 1.0}, "count", "must be an integer (FV-5.4)"),
    ({"type": "meld"}, "cards", "a meld needs a cards list"),
    ({"type": "discard"}, "cards", "a discard needs a cards list"),
    ({"type": "meld", "cards": "5H"}, "cards", "must be a list of card strings"),
    ({"type": "meld", "cards": ["5H", "jk"]}, "cards[1]", "there is no joker in The Four Virtues (FV-5.4)"),
    ({"type": "add", "cards": ["5H"]}, "meld", "an add names the meld's number, an integer (FV-5.4)"),
    ({"type": "add", "cards": ["5H"], "meld": False}, "meld", "an add names the meld's number, an integer (FV-5.4)"),
    ({"type": "meld", "cards": ["5H"], "face": "JK"}, "face[0]", "there is no joker in The Four Virtues (FV-5.4)"),
    ({"type": "meld", "cards": ["5H"], "force": "2"}, "force", "must be an integer (FV-5.4)"),
    ({"type": "meld", "cards": ["5H"], "draw": 1.0}, "draw", "must be an integer (FV-5.4)"),
    ({"type": "meld", "cards": ["5H"], "lowered": "5H"}, "lowered", 'must be {"card": "9H", "rank": "5"} (FV-5.4)'),
    ({"type": "meld", "cards": ["5H"], "lowered": {"card": "5H"}}, "lowered", 'must be {"card": "9H", "rank": "5"} (FV-5.4)'),
    ({"type": "meld", "cards": ["5H"], "lowered": {"card": "5H", "rank": "X"}}, "lowered",
     'must be {"card": "9H", "rank": "5"} (FV-5.4)'),
    ({"type": "meld", "cards": ["5H"], "lowered": {"card": "5H", "rank": 5}}, "lowered",
     'must be {"card": "9H", "rank": "5"} (FV-5.4)'),
    ({"type": "meld", "cards": ["5H"], "lowered": {"card": "5H", "rank": "55"}}, "lowered",
     'must be {"card": "9H", "rank": "5"} (FV-5.4)'),
    ({"type": "meld", "cards": ["5H"], "lowered": {"card": "JK", "rank": "5"}}, "lowered.card[0]",
     "there is no joker in The Four Virtues (FV-5.4)"),
    ({"type": "say", "text": None}, "text", "a say needs a text string"),
])
def test_a_record_move_of_the_wrong_shape_is_malformed_not_illegal(raw, field, reason):
    """FV-5.4: invalid records."""
    with pytest.raises(MalformedMove) as e:
        fv.parse_move({"seat": 0, **raw}, 2)
    assert (e.value.field, e.value.reason) == (field, reason)


@pytest.mark.parametrize("raw, move", [
    ({"type": "draw", "source": "discard"}, {"source": "discard"}),
    ({"type": "draw", "source": "discard", "count": 1}, {"source": "discard", "count": 1}),
    ({"type": "draw", "source": "stock", "count": 2}, {"source": "stock", "count": 2}),
    ({"type": "meld", "cards": ["5h", "6H", "7H"], "face": "QH", "force": 2},
     {"cards": cs("5H 6H 7H"), "face": parse_card("QH"), "force": 2}),
    ({"type": "meld", "cards": ["5H", "6H", "7H"], "face": None, "draw": 0}, {"cards": cs("5H 6H 7H"), "draw": 0}),
    ({"type": "meld", "cards": ["5H", "6H", "9H"], "face": "JC", "lowered": {"card": "9H", "rank": "7"}},
     {"cards": cs("5H 6H 9H"), "face": parse_card("JC"), "lowered": {"card": parse_card("9H"), "rank": 6}}),
    ({"type": "meld", "cards": ["TH", "TS", "KH"], "lowered": {"card": "KH", "rank": "10"}},
     {"cards": cs("TH TS KH"), "lowered": {"card": parse_card("KH"), "rank": 9}}),
    ({"type": "meld", "cards": [], "lowered": {"card": "KH", "rank": "a"}}, {"cards": [], "lowered": {"card": parse_card("KH"), "rank": 0}}),
    ({"type": "meld", "cards": [], "lowered": {"card": "KH", "rank": "q"}}, {"cards": [], "lowered": {"card": parse_card("KH"), "rank": 11}}),
    ({"type": "add", "cards": ["8H"], "meld": 0}, {"cards": cs("8H"), "meld": 0}),
    ({"type": "forced_discard", "cards": ["8H", "KS"]}, {"cards": cs("8H KS")}),
    ({"type": "done"}, {}),
    ({"type": "say", "text": "hi"}, {"text": "hi"}),
])
def test_a_record_move_is_read_into_cards_and_back(raw, move):
    parsed = fv.parse_move({"seat": 1, **raw}, 2)
    assert parsed == {"seat": 1, "type": raw["type"], **move}
    again = fv.parse_move({"seat": 1, **fv.format_move(parsed)}, 2)
    assert again == parsed


def test_a_lowered_card_is_stored_as_a_card_string_and_its_rank_as_a_rank_letter():
    melded = {"type": "melded", "seat": 0, "cards": cs("5H 6H 9H"), "face": parse_card("JC"),
              "lowered": {"card": parse_card("9H"), "rank": 6}, "points": 18, "owed": 0}
    stored = fv.encode_event(melded)
    assert stored == {**melded, "cards": ["5H", "6H", "9H"], "face": "JC", "lowered": {"card": "9H", "rank": 6}}
    assert fv.decode_event(stored) == melded
    assert fv.format_move({"seat": 0, "type": "meld", "cards": cs("5H 6H 9H"), "face": parse_card("JC"),
                           "lowered": {"card": parse_card("9H"), "rank": 6}}) == {
        "seat": 0, "type": "meld", "cards": ["5H", "6H", "9H"], "face": "JC", "lowered": {"card": "9H", "rank": "7"}}
    ended = {"type": "round_ended", "lines": [{"meld": 0, "card": parse_card("5H"), "seat": 0, "added": False,
                                               "virtue": None, "points": 5}]}
    assert fv.encode_event(ended)["lines"][0]["card"] == "5H" and fv.decode_event(fv.encode_event(ended)) == ended


@pytest.mark.parametrize("deck, reason", [
    (list(range(51)), "must hold each of the 52 cards exactly once (got 51 cards, 51 distinct)"),
    (list(range(51)) + [3], "must hold each of the 52 cards exactly once (got 52 cards, 51 distinct)"),
])
def test_a_stacked_deck_holds_each_card_once(deck, reason):
    with pytest.raises(InvalidSetup) as e:
        fv.check_deck(None, deck)
    assert (e.value.field, e.value.reason) == ("deck", reason)
    fv.check_deck(None, list(range(52)))
    assert fv.pack() == list(range(52))
