"""Batallion's inference from the other seats' public choices (issue 36 part 2, docs/analysis.md "Inference"): what
each choice is read to say of the hand at the time (the heuristic bot's rules, softened), how that hand is rebuilt
from the hand now, and that weighing by it moves the samples toward the deals the bots really held."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

from domain.analysis import _drawer
from domain.batallion import inference
from domain.batallion.codec import JOKER, parse_card
from domain.batallion.setup import configure
from domain.batallion.state import ACQUISITION, BATTLES, BIDDING
from domain.games import spec_for
from domain.records import parse
from projections.knowledge import seat_knowledge
from service.offline.simulation import make_plan, run

GROUP = 2  # the base game's largest group: twins
CLUBS, SPADES = 0, 3


def _hand(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def _against(reading, text):
    return inference.against(reading, _hand(text), GROUP)


def test_a_pass_says_the_best_attack_was_worth_less_than_the_lowest_bid_plus_the_margin():
    # JS JS + QS: 4 + 1 = 5 in spades
    assert _against(("pass", 4), "JS JS QS 2C 3D")  # 5 >= 4 + 1: the bot would have bid
    assert not _against(("pass", 5), "JS JS QS 2C 3D")  # 5 < 5 + 1: it could not bid with the margin


def test_a_bid_says_the_best_attack_was_worth_at_least_the_bid_plus_the_margin():
    assert not _against(("bid", 4), "JS JS QS 2C 3D")
    assert _against(("bid", 5), "JS JS QS 2C 3D")
    assert not _against(("bid", 5), "JS JS QS 2C 3D JK")  # a joker makes QS twins: 4 + 4 = 8


def test_taking_the_top_card_says_it_was_of_the_best_suit_or_made_twins_and_the_stock_says_neither():
    best_spades = "JS JS QS 2C 3D"
    assert not _against(("draw", parse_card("5S"), True), best_spades)  # of the best suit
    assert _against(("draw", parse_card("5S"), False), best_spades)
    assert not _against(("draw", parse_card("2C"), True), best_spades)  # twins with the 2C held
    assert not _against(("draw", parse_card("9H"), False), best_spades)  # neither: the stock
    assert _against(("draw", parse_card("9H"), True), best_spades)
    tied = "JS JS 2C 2C 3D QD"  # clubs and spades both worth 4: clubs, first in C D H S, is the best suit
    assert not _against(("draw", parse_card("5C"), True), tied)
    assert _against(("draw", parse_card("5S"), True), tied)
    assert _against(("draw", parse_card("JS"), True), tied)  # its twins are whole already
    assert _against(("draw", parse_card("JD"), True), tied)  # diamonds (2) are not the best suit


def test_a_discard_says_no_card_of_the_hand_was_worth_less_to_it():
    hand = "JS JS QS 2C 2C 3D"
    assert not _against(("discard", parse_card("3D")), hand)  # a single off the best suit: the least worth
    assert _against(("discard", parse_card("2C")), hand)  # half of twins, while 3D was a single
    assert _against(("discard", parse_card("QS")), hand)  # the best suit goes last
    assert _against(("discard", JOKER), hand + " JK")  # a joker is kept over everything
    assert not _against(("discard", parse_card("3D")), hand + " 4H")  # 4H is worth as little: a tie is no evidence


def test_an_attack_says_no_stronger_attack_was_allowed():
    hand = "JS JS QS 2C 3C 4C 9H"
    assert not _against(("attack", 5, (0, 1, 2, 3)), hand)  # all the spades: 5, the strongest
    assert _against(("attack", 3, (0, 1, 2, 3)), hand)  # clubs (3) while spades (5) were allowed
    assert not _against(("attack", 3, (0, 1, 2)), hand)  # spades not allowed (the previous attack's suit)
    assert _against(("attack", 3, (0, 1, 2)), hand + " 5C")  # four clubs held: 4 > 3


def test_a_defence_says_the_defender_held_no_more_of_the_attacks_suit():
    assert not _against(("defend", CLUBS, 2), "2C 3C 9H")
    assert _against(("defend", CLUBS, 1), "2C 3C 9H")
    assert _against(("defend", SPADES, 0), "2C 3C 9S")  # a surrender says it held none
    assert not _against(("defend", SPADES, 0), "2C 3C 9H")


SHADOW = {"phase": BATTLES, "drawn": False, "stock": (0,), "high_bid": None, "first_attack": False, "prev_suit": None,
          "battle": None}


def test_the_seats_own_choices_and_forced_draws_are_not_read():
    setup = configure({"variants": []}, [{"name": f"p{i}"} for i in range(4)])
    w = inference.Watcher(0, setup)
    w.see(1, "passed", 0, {"seat": 0}, SimpleNamespace(**dict(SHADOW, phase=BIDDING)), [])  # the seat itself
    w.see(2, "drew", 1, {"seat": 1, "source": "stock"}, SimpleNamespace(**dict(SHADOW, phase=ACQUISITION, stock=())),
          [parse_card("5S")])  # an empty stock: the discard pile was the only source
    w.see(3, "drew", 1, {"seat": 1, "source": "stock"}, SimpleNamespace(**dict(SHADOW, phase=ACQUISITION)),
          [JOKER])  # a joker on top: always taken, so drawing says nothing of the hand
    assert w.finish(SimpleNamespace(located={}, known={})) == ()
    w.see(4, "passed", 2, {"seat": 2}, SimpleNamespace(**dict(SHADOW, phase=BIDDING, high_bid=6)), [])
    (observation,) = w.finish(SimpleNamespace(located={}, known={}))
    assert observation[0] == 2 and observation[4] == ((inference.READ, ("pass", 7), inference.EPS_BID),)


def _surrender(w, i, who, suit="KC"):
    w.see(i, "defended", who, {"seat": who, "cards": []},
          SimpleNamespace(**dict(SHADOW, battle=(2, who, (parse_card(suit),)))), [])


def test_the_hand_at_a_choice_is_the_hand_now_with_cards_given_up_since_put_back_and_cards_taken_since_taken_out():
    """Seat 1 is dealt three unseen cards; it discards 4C, surrenders to a club attack (so it held no club then), takes
    5C from the discard pile, surrenders to clubs again (holding the 5C: weighed down), then discards 3S. The 4C had
    left before the first surrender, the 3S was still held at both, the 5C came between them."""
    setup = configure({"variants": []}, [{"name": f"p{i}"} for i in range(4)])
    w = inference.Watcher(0, setup)
    w.dealt(0, 1, 0, 3)
    w.removed(1, 1, [parse_card("4C")], range(1))
    _surrender(w, 2, 1)
    w.took(3, 1, parse_card("5C"))
    _surrender(w, 4, 1)
    w.removed(5, 1, [parse_card("3S")], range(1, 2))
    hidden = SimpleNamespace(located={1: [(parse_card("4C"), 0), (parse_card("3S"), 0)]}, known={1: [parse_card("5C")]})
    (observation,) = w.finish(hidden)
    rng = random.Random(0)
    eps = inference.EPS_DEFEND
    assert inference.seat_weight(observation, _hand("AS 5C"), rng, GROUP) == eps  # only the second goes against
    assert inference.seat_weight(observation, _hand("3C 5C"), rng, GROUP) == eps * eps  # the 3C was held at both
    w.removed(6, 1, [parse_card("AS")], range(2, 3))  # a spade given up later was held at both: no club
    hidden.located[1].append((parse_card("AS"), 0))
    assert inference.seat_weight(w.finish(hidden)[0], _hand("5C"), rng, GROUP) == eps


def test_a_played_card_fills_a_slot_filled_before_it_left_of_its_pool_and_each_fitting_filling_is_as_likely():
    slots = ((0, 0), (5, 0), (9, 0))  # dealt at 0, drawn at 5 and 9, all from the first pool
    counts = Counter()
    rng = random.Random(1)
    for _ in range(4000):
        counts[tuple(inference._filled(slots, ((7, 0, 6),), [1, 2], rng))] += 1
    # the card that left at 6 filled the slot of 0 or of 5, never the one of 9; the two held fill the rest
    assert set(counts) == {(7, 1, 2), (7, 2, 1), (1, 7, 2), (2, 7, 1)}
    assert all(900 < n < 1100 for n in counts.values()), counts
    assert inference._filled(slots, ((7, "reshuffle", 6),), [1, 2], rng) is None  # no slot of its pool
    assert inference._filled(slots, ((7, 0, 0),), [1, 2], rng) is None  # gone before any slot was filled


def _record(seed="s2"):
    return parse(next(iter(run(make_plan("batallion", 4, 1, ("heuristic",), {"variants": []}, seed), 1))))


def _true_states(record) -> list:
    d = record.decider
    s = d.initial_state(record.setup)
    for e in d.start(record.setup, record.chance):
        s = d.evolve(s, e)
    states = [s]
    for m in record.moves:
        s = d.step(s, m, record.chance)[1]
        states.append(s)
    return states


def test_the_deal_the_bots_really_held_fits_their_choices_better_than_plain_samples_and_resampling_moves_toward_it():
    """At seat 0's bidding decision in a game of heuristic bots (the model's own players), the real deal's weight is
    far above the plain samples' mean, and the deals the inference keeps fit better than plain ones."""
    record, seat = _record(), 0
    a = spec_for("batallion").analysis
    states = _true_states(record)
    seen, decisions = seat_knowledge(record, seat)
    x = next(x for x in decisions if states[x.move_index].phase == BIDDING)
    knowledge = seen[:x.index]
    folded = a.fold(record.setup, seat, knowledge)
    plain, _ = _drawer(a, record.setup, seat, knowledge, "t", infer=False)
    weighed, _ = _drawer(a, record.setup, seat, knowledge, "t", infer=True)
    fit_plain = sum(a.evidence(folded, plain(k)) for k in range(100)) / 100
    fit_weighed = sum(a.evidence(folded, weighed(k)) for k in range(100)) / 100
    assert a.evidence(folded, states[x.move_index]) > 10 * fit_plain
    assert fit_weighed > 1.5 * fit_plain
