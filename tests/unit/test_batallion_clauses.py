"""Batallion's clauses one by one on stacked decks (rules/batallion.md): names state the rule under test."""

from __future__ import annotations

from collections import Counter

import pytest

import domain.batallion as ba
from domain.randomness import Chance, shuffle
from domain.rules import RuleViolation

SEED = "ba77a110"


def c(text: str) -> int:
    return ba.parse_card(text)


def cs(text: str) -> list[int]:
    return [c(t) for t in text.split()]


class Table:
    """A stacked Batallion game: the given hands (dealt one at a time from the dealer's left), the up-card,
    the stock's top cards, then the rest of the packs in unshuffled order."""

    def __init__(self, hands: list[str], up: str = "2H", stock_top: str = "", variants=(), chips=None, dealer=0,
                 outcomes=None):
        options = {"variants": list(variants)}
        if chips is not None:
            options["chips"] = chips
        n = len(hands)
        self.setup = ba.configure(options, [{"name": f"P{i}"} for i in range(n)], dealer, None)
        want = [cs(h) for h in hands]
        size = self.setup.hand_size
        assert all(len(h) == size for h in want), "every hand holds the hand size"
        order, taken = [], [0] * n
        for i in range(size * n):
            seat = (dealer + 1 + i) % n
            order.append(want[seat][taken[seat]])
            taken[seat] += 1
        order += [c(up)] + cs(stock_top)
        rest = Counter(ba.pack(self.setup))
        rest.subtract(Counter(order))
        assert all(k >= 0 for k in rest.values()), "the stacked cards exist in the packs"
        order += sorted(rest.elements())
        self.chance = Chance(SEED, {"deal": order, "dealer": dealer, **(outcomes or {})})
        self.state = ba.initial_state(self.setup)
        for e in ba.start(self.setup, self.chance):
            self.state = ba.evolve(self.state, e)
        self.events: list[dict] = []

    def play(self, seat: int, kind: str, **fields) -> list[dict]:
        move = {"seat": seat, "type": kind, **fields}
        if "cards" in move and isinstance(move["cards"], str):
            move["cards"] = cs(move["cards"])
        events, self.state = ba.step(self.state, move, self.chance)
        self.events += events
        return events

    def refused(self, seat: int, kind: str, **fields) -> RuleViolation:
        before = self.state
        with pytest.raises(RuleViolation) as e:
            self.play(seat, kind, **fields)
        assert self.state == before
        return e.value

    def acquire(self) -> "Table":
        """BA-2.2, three rounds in which every seat takes the up-card from the discard pile and throws it back."""
        for _ in range(3 * self.setup.n):
            seat = self.state.to_act
            self.play(seat, "draw", source="discard")
            self.play(seat, "discard", cards=[self.events[-1]["card"]])
        assert self.state.phase == "bidding"
        return self

    def bids(self, *amounts) -> "Table":
        """Each seat in turn from the dealer's left: an amount, or None to pass."""
        for amount in amounts:
            seat = self.state.to_act
            if amount is None:
                self.play(seat, "pass")
            else:
                self.play(seat, "bid", amount=amount)
        return self


H0 = "AC QD KD AH 6H 7H 2S 3S 4S 5S"
H1 = "9C 9C 8D 8D 5H 5H 2S JS JS TC"
H2 = "5C 6C 7C 8C 3D 4D AS QS QS KS"


def three(variants=(), **kw) -> Table:
    return Table([H0, H1, H2], variants=variants, **kw).acquire()


def test_twins_are_worth_four_and_a_surrender_loses_the_whole_value():
    t = three().bids(4, None, None)  # seat 1 bids 4 with JS JS (twins: 2 x 2 = 4, BA-1.3)
    t.play(1, "attack", cards="JS JS", target=2)
    t.play(2, "defend", cards=[])
    assert t.state.chips == (10, 10, 6) and t.state.chips_out == 4


def test_the_defender_winning_is_paid_twice_the_difference_by_the_attacker():
    t = three().bids(4, None, None)
    t.play(1, "attack", cards="JS JS", target=2)  # 4
    t.play(2, "defend", cards="AS QS QS KS")  # 1 + 4 + 1 = 6
    assert t.state.chips == (10, 6, 14) and t.state.chips_out == 0


def test_equal_values_change_nothing():
    t = three().bids(4, None, None)
    t.play(1, "attack", cards="JS JS", target=2)
    t.play(2, "defend", cards="QS QS")
    assert t.state.chips == (10, 10, 10)


def test_a_loss_is_capped_at_the_chips_held_and_ends_the_game_before_the_draw_back():
    t = three().bids(4, None, None)
    t.state.__dict__["chips"] = (10, 10, 3)  # a stacked chip count
    t.play(1, "attack", cards="JS JS", target=2)
    events = t.play(2, "defend", cards=[])
    assert [e["type"] for e in events] == ["defended", "chips_lost", "ended"]
    assert events[1]["amount"] == 3 and t.state.chips == (10, 10, 0)
    assert ba.outcome(t.state).seats == (0, 1) and ba.outcome(t.state).result == "win"  # a tie for most chips is shared
    assert len(t.state.hands[1]) == 8  # nobody drew back


def test_an_attacker_pays_only_the_chips_it_holds():
    t = three().bids(4, None, None)
    t.state.__dict__["chips"] = (10, 1, 10)
    t.play(1, "attack", cards="JS JS", target=2)
    events = t.play(2, "defend", cards="AS QS QS KS")
    assert events[1] == {"type": "chips_paid", "seat": 1, "to": 2, "amount": 1}
    assert t.state.chips == (10, 0, 11)


def test_a_bid_is_at_least_four_higher_than_the_high_bid_and_at_most_the_best_attack():
    t = three()
    assert t.refused(1, "bid", amount=3).clause == "BA-3.2"
    assert t.refused(1, "bid", amount=6).clause == "BA-3.2"  # best attack: JS JS 2S = 5 (BA-3.2 R)
    t.play(1, "bid", amount=5)
    assert t.refused(2, "bid", amount=5).clause == "BA-3.2"  # not higher
    assert t.refused(0, "bid", amount=6).clause == "BA-3.1"  # out of turn


def test_an_over_bid_refusal_names_no_card():
    t = three()
    refusal = t.refused(1, "bid", amount=9)
    assert not any(name in refusal.reason for name in ("JS", "9C", "8D", "5H"))


def test_when_everybody_passes_the_dealer_attacks_first_without_a_minimum():
    t = three().bids(None, None, None)
    assert t.state.to_act == 0 and t.state.high_bid is None
    t.play(0, "attack", cards="AC", target=1)  # one card, worth 1


def test_the_first_attack_must_reach_the_bid():
    t = three().bids(4, None, None)
    assert t.refused(1, "attack", cards="JS", target=2).clause == "BA-4.1"


def test_the_same_suit_twice_in_a_row_is_refused_and_oneself_is_no_target():
    t = three().bids(4, None, None)
    t.play(1, "attack", cards="JS JS", target=2)
    t.play(2, "defend", cards="QS QS")
    assert t.state.to_act == 2
    assert t.refused(2, "attack", cards="KS", target=0).clause == "BA-4.2"
    assert t.refused(2, "attack", cards="5C", target=2).clause == "BA-4.2"
    t.play(2, "attack", cards="5C 6C", target=0)


def test_a_joker_makes_twins_at_most_one_per_attack_never_alone_never_beyond_the_maximum():
    hands = ["AC QD KD AH 6H 7H 2S 3S 4S 5S", "9C 9C 8D 8D 5H JK JK JS JS TC", "5C 6C 7C 8C 3D 4D AS QS QS KS"]
    t = Table(hands, variants=["jokers"]).acquire()
    assert t.refused(1, "bid", amount=9).clause == "BA-3.2"  # best: 9C 9C TC + JK as a second TC = 4 + 4 = 8
    t.bids(8, None, None)
    assert t.refused(1, "attack", cards="JK JK 9C", target=2).clause == "BA-1.4"  # two jokers
    assert t.refused(1, "attack", cards="JK", target=2).clause == "BA-1.4"  # a joker alone
    assert t.refused(1, "attack", cards="JS JS JK", target=2).clause == "BA-1.4"  # twins cannot grow to triplets
    t.play(1, "attack", cards="9C 9C TC JK", target=2)
    assert ba.clauses.attack_value(list(t.state.battle[2]), 2) == 8


def test_a_joker_may_not_defend():
    hands = ["AC QD KD AH 6H 7H 2S 3S 4S 5S", "9C 9C 8D 8D 5H 5H 2S JS JS TC", "5C 6C 7C 8C 3D 4D AS QS JK KS"]
    t = Table(hands, variants=["jokers"]).acquire().bids(4, None, None)
    t.play(1, "attack", cards="JS JS", target=2)
    assert t.refused(2, "defend", cards="QS JK").clause == "BA-4.4"
    assert t.refused(2, "defend", cards="5C").clause == "BA-4.4"  # not the attack's suit


def test_triplets_are_worth_nine_in_five_six():
    hands = ["AC QD KD AH 6H 7H 2S 3S 4S 5S", "9C 9C 8D 8D 5H 5H JS JS JS TC", "5C 6C 7C 8C 3D 4D AS QS QS KS",
             "AD 2D 3C 4C 5D 6D 7D 9D TD JD", "AH 2H 3H 4H 8H 9H TH JH QH KH"]
    t = Table(hands, variants=["five_six"]).acquire()
    t.bids(9, None, None, None, None)  # the bid is at most the best attack: JS JS JS = 9 (BA-1.3)
    t.play(1, "attack", cards="JS JS JS", target=2)
    t.play(2, "defend", cards=[])
    assert t.state.chips[2] == 15 - 9


def test_blind_attacks_the_richest_opponent_and_a_tie_is_rolled_from_the_seed():
    t = three(variants=["blind"]).bids(4, None, None)
    turn = t.events[-1]
    assert turn["type"] == "attack_turn" and turn["tied"] == [0, 2] and turn["tie"] == 1
    assert turn["target"] == [0, 2][Chance(SEED).randbelow("blind:1", 2)]
    other = 2 if turn["target"] == 0 else 0
    assert t.refused(1, "attack", cards="JS JS", target=other).clause == "BA-4.3"
    t.play(1, "attack", cards="JS JS", target=turn["target"])


def test_a_blind_roll_fixed_by_the_record_out_of_range_makes_the_move_that_rolls_it_illegal():
    t = Table([H0, H1, H2], variants=["blind"], outcomes={"blind:1": 2}).acquire().bids(4, None)
    assert t.refused(0, "pass").clause == "BA-4.3"  # the last pass starts the attack turn and its roll among 2 seats
    fixed = Table([H0, H1, H2], variants=["blind"], outcomes={"blind:1": 1}).acquire().bids(4, None, None)
    assert fixed.state.blind_target == 2


def test_the_reshuffle_puts_the_discard_pile_in_pack_order_then_shuffles_it():
    t = three().bids(4, None, None)
    t.state.__dict__["stock"] = t.state.stock[:1]  # one card left in the stock
    t.play(1, "attack", cards="JS JS", target=2)
    events = t.play(2, "defend", cards=[])
    reshuffle = next(e for e in events if e["type"] == "reshuffled")
    pile = sorted(cs("2H JS JS"))
    assert reshuffle["k"] == 1 and reshuffle["order"] == shuffle(SEED, "reshuffle:1", pile)


def test_under_scarcity_there_is_no_reshuffle_and_an_empty_hand_ends_the_game_after_the_draw_back():
    t = three(variants=["scarcity"]).bids(4, None, None)
    t.state.__dict__["stock"] = ()
    t.state.__dict__["hands"] = (t.state.hands[0], tuple(cs("JS JS")), t.state.hands[2])
    t.play(1, "attack", cards="JS JS", target=2)
    events = t.play(2, "defend", cards=[])
    assert not any(e["type"] == "reshuffled" for e in events)
    assert events[-1]["type"] == "ended" and events[-1]["by"] == "scarcity"


def test_seats_without_an_allowed_suit_are_skipped_and_all_skipped_ends_the_game():
    t = three().bids(4, None, None)
    t.state.__dict__["hands"] = (tuple(cs("2S 3S")), t.state.hands[1], tuple(cs("AS QS QS KS")))
    t.state.__dict__["stock"] = ()
    t.state.__dict__["discard"] = ()
    t.play(1, "attack", cards="JS JS", target=2)
    events = t.play(2, "defend", cards="QS QS")
    # after a spade attack: seat 2 and seat 0 hold only spades, seat 1 holds clubs: seat 1 attacks again
    turn = events[-1]
    assert turn["type"] == "attack_turn" and turn["skipped"] == [2, 0] and turn["seat"] == 1


def test_check_order_two_jokers_before_the_suit_rules():
    hands = ["AC QD KD AH 6H 7H 2S 3S 4S 5S", "9C 9C 8D 8D 5H JK JK JS JS TC", "5C 6C 7C 8C 3D 4D AS QS QS KS"]
    t = Table(hands, variants=["jokers"]).acquire().bids(4, None, None)
    assert t.refused(1, "attack", cards="JK JK 9C 8D", target=2).clause == "BA-1.4"  # jokers before one suit (BA-6.3)
    assert t.refused(1, "attack", cards="9C 8D", target=2).clause == "BA-4.1"  # one suit


def test_any_move_after_the_end_is_refused_with_ba_5_1():
    t = three().bids(4, None, None)
    t.state.__dict__["chips"] = (10, 10, 1)
    t.play(1, "attack", cards="JS JS", target=2)
    t.play(2, "defend", cards=[])
    assert ba.outcome(t.state).is_over
    assert t.refused(0, "say", text="gg").clause == "BA-5.1"
