"""Batallion's analysis sampler keeps what a bid says (BA-3.2): a bidder's best suit is worth at least its bid, for as
long as it holds the hand it bid with (until it attacks, defends or draws). Every sample, at every decision of a
stacked game from the bidding to the battles after the first (tests/unit/test_batallion_rules.py's table: seat 1
bids 5 holding 9C 9C TC, seat 2 bids 6 holding AS KS QS QS), backs each such bid (a surrender changes no hand); and
a bid no longer constrains a hand that has changed (its samples are then as free as any)."""

from __future__ import annotations

import random

from domain.batallion.clauses import best_attack_value
from domain.batallion.codec import JOKER, parse_card
from domain.games import SPECS
from domain.records import parse, to_document
from projections.knowledge import seat_knowledge
from projections.registry import projection_for
from projections.viewers import REFEREE
from tests.unit.test_batallion_rules import H0, H1, H2, SEED, Table

ANALYSIS = SPECS["batallion"].analysis
SAMPLES = 40


class Recorded(Table):
    """A stacked table that keeps its moves, for a record (and so for a seat's knowledge)."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.moves: list[dict] = []

    def play(self, seat, kind, **fields):
        events = super().play(seat, kind, **fields)
        self.moves.append({"seat": seat, "type": kind, **{k: v for k, v in fields.items()}})
        if isinstance(self.moves[-1].get("cards"), str):
            self.moves[-1]["cards"] = [parse_card(c) for c in self.moves[-1]["cards"].split()]
        return events


def _game() -> Recorded:
    t = Recorded([H0, H1, H2])
    t.acquire().bids(5, 6, None)  # seat 1 bids 5, seat 2 bids 6, seat 0 passes
    t.play(2, "attack", cards="AS KS QS QS", target=0)
    t.play(0, "defend", cards="2S")
    t.play(0, "attack", cards="AC", target=2)  # seat 0 attacks next: seat 1 still holds its bidding hand
    t.play(2, "defend", cards="")  # seat 2 surrenders: it keeps the rest of its hand, draws nothing
    return t


def _hands(record, seat, k) -> list[dict]:
    seen, decisions = seat_knowledge(record, seat)
    decision = next(d for d in decisions if d.move_index == k)
    project = projection_for("batallion").table
    out = []
    for i in range(SAMPLES):
        state = ANALYSIS.sample(record.setup, seat, seen[:decision.index], random.Random(f"bids|{k}|{i}"))
        out.append({e["seat"]: tuple(parse_card(c) for c in e["hand"]) for e in project(state, REFEREE)["seats"]})
    return out


def _worth(hand) -> int:
    return best_attack_value(tuple(sorted(hand)), 2)


def test_every_sample_backs_each_bid_whose_bidder_still_holds_its_hand():
    t = _game()
    record = parse(to_document("batallion", t.setup, SEED, {"deal": t.deck}, t.moves))
    first_bid = next(i for i, m in enumerate(t.moves) if m["type"] == "bid")
    # (deciding seat, move index, {bidder: amount} that must be backed)
    checks = [(2, first_bid + 1, {1: 5}),  # seat 2 bids after seat 1's 5
              (0, first_bid + 2, {1: 5, 2: 6}),  # seat 0 passes after both bids
              (2, first_bid + 3, {1: 5}),  # seat 2's first attack: its own bid is its own business
              (0, first_bid + 4, {1: 5}),  # seat 0 defends: the attacker no longer holds its bidding hand
              (0, first_bid + 5, {1: 5}),  # seat 0 attacks next: seat 1 has neither attacked nor defended
              (2, first_bid + 6, {1: 5})]  # seat 2 defends (and will surrender)
    for seat, k, backed in checks:
        assert t.moves[k]["seat"] == seat
        for hands in _hands(record, seat, k):
            for bidder, amount in backed.items():
                assert _worth(hands[bidder]) >= amount, (seat, k, bidder, hands[bidder])


def test_with_jokers_a_bidders_hand_holding_one_backs_its_bid_counted_as_the_copy_that_adds_most():
    """BA-1.4 with the `jokers` variant: the jokers are among the unseen cards, so sampled bidder hands hold them, and
    each sample backs the bid with the joker counted in the largest group it may join (twins at most here)."""
    t = Recorded([H0, H1, H2], variants=["jokers"])
    t.acquire().bids(5, 6, None)
    record = parse(to_document("batallion", t.setup, SEED, {"deal": t.deck}, t.moves))
    first_bid = next(i for i, m in enumerate(t.moves) if m["type"] == "bid")
    hands = [h[1] for h in _hands(record, 2, first_bid + 1)]
    assert any(JOKER in hand for hand in hands)
    assert all(best_attack_value(tuple(sorted(hand)), record.setup.max_group) >= 5 for hand in hands)


def test_a_bid_no_longer_constrains_a_hand_that_changed():
    """Seat 2 bid 6 and attacked with its spades: at seat 0's defence its remaining hand (seven cards, drawn freely)
    is worth less than 6 in some samples; its bid said nothing of them."""
    t = _game()
    record = parse(to_document("batallion", t.setup, SEED, {"deal": t.deck}, t.moves))
    k = next(i for i, m in enumerate(t.moves) if m["type"] == "defend")
    assert any(_worth(hands[2]) < 6 for hands in _hands(record, 0, k))


def test_a_bid_is_backed_by_hands_worth_exactly_the_bid_as_often_as_by_better_ones():
    """Uniform among the hands that back the bid: those worth exactly 5, the commonest, are among the samples."""
    t = _game()
    record = parse(to_document("batallion", t.setup, SEED, {"deal": t.deck}, t.moves))
    first_bid = next(i for i, m in enumerate(t.moves) if m["type"] == "bid")
    assert any(_worth(hands[1]) == 5 for hands in _hands(record, 2, first_bid + 1))


def test_a_defence_with_cards_releases_the_defenders_bid():
    """Seat 1 bid 5 and defends seat 2's spades with its own 2S JS JS, then draws back: at seat 0's attack next its
    hand is no longer the one it bid with, and some samples are worth less than 5."""
    t = Recorded([H0, H1, H2])
    t.acquire().bids(5, 6, None)
    t.play(2, "attack", cards="AS KS QS QS", target=1)
    t.play(1, "defend", cards="2S JS JS")
    t.play(0, "attack", cards="AC", target=2)
    record = parse(to_document("batallion", t.setup, SEED, {"deal": t.deck}, t.moves))
    k = len(t.moves) - 1
    assert t.moves[k]["seat"] == 0
    assert any(_worth(hands[1]) < 5 for hands in _hands(record, 0, k))


def test_a_decision_with_an_empty_stock_is_sampled():
    """The stock runs out (BA-4.6: a new stock is formed only when a card has to be drawn; under `scarcity`, never):
    seeded random games of every table are played until a decision with an empty stock, whose samples agree with
    what the seat saw."""
    from tests.unit.test_analysis_samplers import _check_samples, analysed, random_record
    from tests.unit.test_registry_properties import tables

    found = None
    for i, (options, players) in enumerate(tables("batallion") * 3):
        record, states = random_record("batallion", options, players, f"{i:04x}", random.Random(i), limit=700)
        j = next((j for j, m in enumerate(record.moves) if not states[j].stock and m["type"] != "say"
                  and analysed(SPECS["batallion"], states[j], m["seat"])), None)
        if j is not None:
            found = record, states, j
            break
    assert found, "no decision with an empty stock"
    record, states, j = found
    seat = record.moves[j]["seat"]
    seen, decisions = seat_knowledge(record, seat)
    _check_samples("batallion", record, states, seat, seen, next(k for k in decisions if k.move_index == j), "empty")
