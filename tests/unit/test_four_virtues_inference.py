"""The Four Virtues' inference from the opponent's public choices (issue 36 part 2, docs/analysis.md "Other games";
domain/four_virtues/inference.py): the readings on hand-built positions, the hand at the time rebuilt from the hand
now, that the heuristic bot's own true hands contradict no reading, and that resampling favours the deals that fit.
The hidden-card property (the weights read no card the seat had not seen) is tests/unit/test_analysis_hidden.py's,
run for every game with a model."""

from __future__ import annotations

from types import SimpleNamespace

from domain.analysis import _drawer, analyse_decision
from domain.cards import parse_card
from domain.four_virtues import inference
from domain.four_virtues.clauses import Meld
from domain.games import spec_for
from domain.records import parse
from projections.knowledge import seat_knowledge
from service.offline.simulation import make_plan, run
from tests.conftest import examples

SEAT, OPP = 0, 1


def _c(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def _mask(text: str) -> int:
    return sum(1 << c for c in _c(text))


def _table(melds=(), stock=20):
    return SimpleNamespace(stock=(0,) * stock, melds=tuple(melds))


def _watch(*events, melds=(), stock=20):
    w = inference.Watcher(SEAT)
    for e in events:
        w.see(e, _table(melds, stock))
    return w.finish()


def _drew_pile(card):
    return {"type": "drew", "seat": OPP, "source": "discard", "cards": _c(card)}


def _discarded(card):
    return {"type": "discarded", "seat": OPP, "cards": _c(card)}


def test_a_draw_from_the_pile_says_the_card_made_a_set_or_run_of_three_with_the_hand_before_it():
    readings = _watch(_drew_pile("7H"))
    # the hand now holds the 7H it took; before the draw it held 7C 7D (a set with it) or 5H 6H (a run), or neither
    assert inference.weight(readings, _mask("7H 7C 7D 2S")) == 1.0
    assert inference.weight(readings, _mask("7H 5H 6H 2S")) == 1.0
    assert inference.weight(readings, _mask("7H 7C 2S 9D")) == inference.EPS_DRAW


def test_a_draw_of_a_face_card_or_of_one_that_fits_the_table_says_nothing_of_the_hand():
    assert _watch(_drew_pile("QH")) == ()
    run_of_hearts = Meld(tuple(_c("4H 5H 6H")), None, SEAT, (SEAT,) * 3, None, 3)
    assert _watch(_drew_pile("7H"), melds=[run_of_hearts]) == ()


def test_a_discard_says_the_hand_held_no_meld_or_addition_and_threw_its_least_connected_card():
    readings = _watch(_discarded("KC"))
    # after the discard it holds 2S 5D 9H: no meld, and the KC (a face: connection 6) was not its least connected
    # card (each of the others: 0), so the bot would have thrown the 2S (lowest pips)
    assert inference.weight(readings, _mask("2S 5D 9H")) == inference.EPS_DISCARD
    readings = _watch(_discarded("2S"))
    assert inference.weight(readings, _mask("KC 5D 9H")) == 1.0
    # it held a set of fives with the 2S it threw: the bot lays the set down first, and the 2S is still the least
    # connected card
    assert inference.weight(readings, _mask("5C 5D 5H")) == inference.EPS_HOLD
    # an addition to a meld on the table counts as held back too
    fives = Meld(tuple(_c("5C 5D 5H")), None, SEAT, (SEAT,) * 3, None, 3)
    readings = _watch(_discarded("2S"), melds=[fives])
    assert inference.weight(readings, _mask("5S 9H TD")) == inference.EPS_HOLD


def test_the_card_taken_from_the_pile_this_turn_is_never_the_bots_discard():
    """At the discard it held AH 9C 2S, none connected: the AH has the lowest pips, but it came from the pile this
    turn, so the bot throws the 2S."""
    taken = _watch(_drew_pile("AH"), _discarded("2S"))
    assert {r[0] for r in taken} == {"completes", "hold", "discard"}
    discard = tuple(r for r in taken if r[0] == "discard")
    assert inference.weight(discard, _mask("AH 9C")) == 1.0
    untaken = tuple(r for r in _watch(_discarded("2S")) if r[0] == "discard")
    assert inference.weight(untaken, _mask("AH 9C")) == inference.EPS_DISCARD


def test_cards_played_since_a_reading_are_put_back_and_cards_taken_since_taken_out():
    readings = _watch(_discarded("2S"), {"type": "forced_discarded", "seat": OPP, "cards": _c("5D")})
    # now it holds 9H; at the discard it held 9H 5D 2S: the 2S (pips 2) was its least connected card
    discard = [r for r in readings if r[0] == "discard"]
    assert discard[0][4] == _mask("2S 5D")  # played since: the discard itself, then the forced discard
    assert inference.weight(tuple(discard), _mask("9H")) == 1.0
    # with the 5D put back, an AH now would have been the card to throw
    assert inference.weight(tuple(discard), _mask("9H AH")) == inference.EPS_DISCARD
    taken = _watch(_discarded("2S"), _drew_pile("8C"))
    assert taken and all(r[5] == _mask("8C") for r in taken)


def test_a_stock_draw_drops_the_readings_before_it_and_a_new_round_drops_all():
    stock = {"type": "drew", "seat": OPP, "source": "stock", "cards": [1001, 1002]}
    assert _watch(_discarded("2S"), stock) == ()
    spades = {"type": "drew", "seat": OPP, "source": "stock", "cards": [1003], "spades": True}
    assert _watch(_discarded("2S"), spades) == ()
    assert _watch(_discarded("2S"), {"type": "dealt", "round": 2, "dealer": 0, "order": []}) == ()
    # the seat's own choices read nothing (it knows its hand)
    assert _watch({"type": "discarded", "seat": SEAT, "cards": _c("2S")}) == ()


def test_a_meld_laid_is_read_as_scoring_at_least_what_every_other_meld_and_addition_would_have():
    meld = {"type": "melded", "seat": OPP, "cards": _c("2C 3C 4C"), "face": None, "lowered": None}
    readings = _watch(meld)
    assert inference.weight(readings, _mask("9D")) == 1.0  # it held nothing better then
    # it held three nines beside it (27 points against 9): not the bot's choice
    assert inference.weight(readings, _mask("9D 9S 9H")) == inference.EPS_MELD
    # a diamonds face counts double: 2C 3C 4C with the KD (18) was better than 5S 6S 7S (18 is not more)
    plain = _watch({"type": "melded", "seat": OPP, "cards": _c("5S 6S 7S"), "face": None, "lowered": None})
    assert inference.weight(plain, _mask("2C 3C 4C KD")) == inference.EPS_MELD
    assert inference.weight(plain, _mask("2C 3C 4C")) == 1.0


def test_the_worth_of_melds_and_additions_is_the_bots_own():
    stock = 1
    assert inference.meld_worth(6, 3, None, stock) == 6
    assert inference.meld_worth(6, 3, parse_card("JD"), stock) == 12
    assert inference.meld_worth(6, 3, parse_card("JH"), stock) == 6 + 3 * 3
    assert inference.meld_worth(6, 3, parse_card("JS"), stock) == 6 + 2 * 1  # the stock holds one card
    run = Meld(tuple(_c("4H 5H 6H")), parse_card("QD"), OPP, (OPP,) * 3, None, 3)
    table = inference.table_of([run], OPP)
    assert inference.best_worth(_c("3H 7H 8H"), table, 20) == 2 * (3 + 7 + 8)  # its own diamonds meld
    assert inference.best_worth(_c("3H 7H 8H"), inference.table_of([run], SEAT), 20) == 3 + 7 + 8
    # a clubs face lowers: 8C 8D TS is a set of three eights worth 24
    assert inference.best_worth(_c("8C 8D TS KC"), (), 20) == 24
    assert inference.best_worth(_c("8C 8D TS"), (), 20) is None


def test_a_forced_discard_gives_up_the_least_connected_cards():
    readings = _watch({"type": "forced_discarded", "seat": OPP, "cards": _c("2S 9H")})
    assert inference.weight(readings, _mask("5C 5D")) == 1.0  # the fives connect (2 each); 2S 9H none
    assert inference.weight(readings, _mask("5C 4D")) == inference.EPS_FORCED  # the 4D (0) before the 9H


def _games(n):
    return [parse(next(iter(run(make_plan("four-virtues", 2, 1, ("heuristic",), {"target": 100}, f"fvinf{g}"), 1))))
            for g in range(n)]


def test_the_heuristic_bots_true_hands_go_against_no_reading():
    """The model is the bot's own rules, so in games of heuristic bots the opponent's true hand fits every reading
    the seat made (the readings rebuild the hand at the time correctly)."""
    spec = spec_for("four-virtues")
    a, d = spec.analysis, spec.decider
    readings = 0
    for record in _games(examples(3, under_mutation=1)):
        states = [d.initial_state(record.setup)]
        for e in d.start(record.setup, record.chance):
            states[0] = d.evolve(states[0], e)
        for m in record.moves:
            states.append(d.step(states[-1], m, record.chance)[1])
        for seat in (0, 1):
            seen, decisions = seat_knowledge(record, seat)
            for x in decisions:
                folded = a.fold(record.setup, seat, seen[:x.index])
                readings += len(folded[3])
                assert a.evidence(folded, states[x.move_index]) == 1.0, (seat, x.move_index, folded[3])
    assert readings > 50


def test_resampling_raises_the_mean_likelihood_of_the_kept_deals_and_the_analysis_reports_it():
    record, seat = _games(1)[0], 0
    seen, decisions = seat_knowledge(record, seat)
    a = spec_for("four-virtues").analysis
    for x in decisions[4:]:
        knowledge = seen[:x.index]
        folded = a.fold(record.setup, seat, knowledge)
        if any(r[0] == "discard" for r in folded[3]):
            break
    plain, _ = _drawer(a, record.setup, seat, knowledge, "t", infer=False)
    weighed, report = _drawer(a, record.setup, seat, knowledge, "t", infer=True)
    fit_plain = sum(a.evidence(folded, plain(k)) for k in range(200)) / 200
    fit_weighed = sum(a.evidence(folded, weighed(k)) for k in range(200)) / 200
    assert fit_weighed > 1.3 * fit_plain
    assert report.report()["proposals"] == 200 * a.proposals
    line = analyse_decision(spec_for("four-virtues"), record.setup, seat, knowledge, x.move, "t", 0, 32)
    assert line is None or 0 < line["inference"]["ess"] <= line["inference"]["proposals"]
