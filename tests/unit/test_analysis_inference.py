"""Inference from the other seats' public choices (issue 36 part 2, docs/analysis.md "Inference"): El Royale's
observations and weights, the importance resampling in domain.analysis, and its report."""

from __future__ import annotations

import json

from domain.analysis import _drawer, analyse_decision
from domain.cards import parse_card
from domain.el_royale import inference
from domain.el_royale.state import CLAIM, JOIN
from domain.games import spec_for
from domain.records import parse
from projections.knowledge import seat_knowledge
from service.offline.simulation import make_plan, run
from tests.conftest import examples


class _Shadow:
    def __init__(self, phase, pile):
        self.phase, self.pile = phase, tuple(pile)
        self.pile_mask = sum(1 << c for c in pile)


def _hands(**cards):
    out = [0, 0, 0, 0]
    for seat, names in cards.items():
        out[int(seat[1:])] = sum(1 << parse_card(c) for c in names)
    return tuple(out)


def test_a_pass_on_a_rank_makes_a_deal_where_the_passer_held_that_rank_less_likely():
    w = inference.Watcher(0)
    w.see("passed", 2, [], _Shadow(JOIN, [parse_card("7H")]))
    obs = w.finish()
    assert inference.weight(obs, _hands(s2=["8C", "9D"])) == 1.0
    assert inference.weight(obs, _hands(s2=["7C", "9D"])) == inference.EPS_PASS


def test_the_seats_own_choices_and_a_draw_weigh_nothing():
    w = inference.Watcher(0)
    w.see("passed", 0, [], _Shadow(JOIN, [parse_card("7H")]))  # the seat's own pass: it knows its hand
    w.see("passed", 2, [], _Shadow(JOIN, [parse_card("7H")]))
    w.see("drew", 2, [], _Shadow(JOIN, []))  # seat 2's hand now holds an unseen card it did not hold then
    assert inference.weight(w.finish(), _hands(s0=["7C"], s2=["7D"])) == 1.0


def test_a_card_played_after_a_pass_was_held_at_the_pass():
    w = inference.Watcher(0)
    w.see("passed", 3, [], _Shadow(JOIN, [parse_card("7H")]))
    w.see("attacked", 3, [parse_card("7S")], _Shadow("attack", []))
    obs = w.finish()
    # whatever seat 3 holds now, it held the 7S it attacked with when it passed on sevens
    assert inference.weight(obs, _hands(s3=["2C"])) < 1.0


def test_after_an_attack_the_attacker_is_taken_to_hold_none_of_its_rank():
    w = inference.Watcher(1)
    w.see("attacked", 2, [parse_card("9C"), parse_card("9D")], _Shadow("attack", []))
    obs = w.finish()
    assert inference.weight(obs, _hands(s2=["2C"])) == 1.0
    assert inference.weight(obs, _hands(s2=["9H"])) == inference.EPS_KEEP


def _record():
    return parse(next(iter(run(make_plan("el-royale", 4, 1, ("heuristic",), {"edition": "revised"}, "s16"), 1))))


def test_resampling_shifts_the_samples_toward_deals_that_fit_the_others_passes():
    record, seat = _record(), 0
    seen, decisions = seat_knowledge(record, seat)
    spec = spec_for("el-royale")
    a = spec.analysis
    # a decision late enough for the others to have passed on ranks they could have thrown in
    for x in decisions[30:]:
        knowledge = seen[:x.index]
        folded = a.fold(record.setup, seat, knowledge)
        if folded[5]:
            break
    plain, _ = _drawer(a, record.setup, seat, knowledge, "t", infer=False)
    weighed, report = _drawer(a, record.setup, seat, knowledge, "t", infer=True)
    # the mean likelihood of the others' choices over the kept deals: higher once the deals are weighed
    fit_plain = sum(a.evidence(folded, plain(k)) for k in range(200)) / 200
    fit_weighed = sum(a.evidence(folded, weighed(k)) for k in range(200)) / 200
    assert fit_weighed > 1.5 * fit_plain
    assert report.report()["proposals"] == 200 * a.proposals


def test_the_analysis_reports_its_effective_sample_size_and_plain_games_report_none():
    record, seat = _record(), 0
    seen, decisions = seat_knowledge(record, seat)
    spec = spec_for("el-royale")
    lines = [analyse_decision(spec, record.setup, seat, seen[:x.index], x.move, "t", k, 32)
             for k, x in enumerate(decisions[:examples(30, under_mutation=8)])]
    lines = [x for x in lines if x is not None]
    assert lines and all(0 < x["inference"]["ess"] <= x["inference"]["proposals"] for x in lines)
    off = analyse_decision(spec, record.setup, seat, seen[:decisions[0].index], decisions[0].move, "t", 0, 32,
                           infer=False)
    assert off is None or "inference" not in off
    sb = parse(next(iter(run(make_plan("small-battle", 2, 1, ("heuristic",), {}, "s"), 1))))
    sseen, sdec = seat_knowledge(sb, 0)
    some = [analyse_decision(spec_for("small-battle"), sb.setup, 0, sseen[:x.index], x.move, "t", k, 16)
            for k, x in enumerate(sdec)]
    assert any(some) and all("inference" not in json.dumps(x) for x in some if x)


def test_a_concession_is_read_as_holding_none_of_the_cards_that_beat_the_top_alone():
    """ER-3.4: the cards that beat a top card alone are its rank's and the higher cards of its suit, no other."""
    from domain.el_royale.clauses import can_beat_classic

    for top in range(52):
        assert inference._beaters(top) == sum(1 << c for c in range(52) if can_beat_classic(c, top)), top


def test_an_observation_starts_with_nothing_played_or_taken_since_and_gathers_every_take():
    """A pass in a window on an ace (card 0, the ace of clubs) is read as holding no ace then; the cards its seat plays
    or takes afterwards are added to the observation, every take kept (a claim, then a take), so a sample holding an
    ace only because it took one since is not weighed down."""
    from types import SimpleNamespace

    watcher = inference.Watcher(0)
    watcher.see("passed", 1, [], SimpleNamespace(phase=JOIN, pile=(0,), pile_mask=1))
    aces = inference.RANK_MASKS[0]
    assert watcher.finish() == ((1, aces, inference.EPS_PASS, 0, 0),)
    watcher.see("claimed", 1, [], SimpleNamespace(phase=CLAIM, pile=(13,), pile_mask=1 << 13))
    watcher.see("took", 1, [26, 39], None)
    (observation,) = watcher.finish()
    assert observation[3:] == (0, 1 << 13 | 1 << 26 | 1 << 39)
    assert inference.weight(watcher.finish(), [0, 1 << 0, 0, 0]) == inference.EPS_PASS  # holds an ace it passed on
    assert inference.weight(watcher.finish(), [0, 1 << 13, 0, 0]) == 1.0  # its ace of diamonds came with the claim
    assert inference.weight(watcher.finish(), [0, 0, 0, 0]) == 1.0


def test_the_watcher_reads_the_others_passes_in_windows_plays_and_big_concessions_and_never_the_seat_itself():
    """What each public choice tells (docs/analysis.md, "Inference"): a pass in a join or reinforce window, holding
    none of the top's rank; a throw-in, holding no more of its rank; conceding a pile of more than CHEAP_PILE cards,
    holding nothing that beats its top alone. The cards a seat plays afterwards (attacks, throw-ins and beats, every
    card of each) are added to what it may have held then; its takes and concessions likewise. The seat's own choices
    and a pass outside a window tell nothing."""
    from types import SimpleNamespace

    from domain.el_royale.state import DEFENCE

    window = SimpleNamespace(phase=JOIN, pile=(0,), pile_mask=1)
    watcher = inference.Watcher(0)
    watcher.see("passed", 0, [], window)  # the seat itself
    watcher.see("passed", 2, [], SimpleNamespace(phase=CLAIM, pile=(0,), pile_mask=1))  # declining a claim
    assert watcher.finish() == ()
    watcher.see("passed", 1, [], window)
    watcher.see("attacked", 1, [5, 18], None)
    watcher.see("beat", 1, [31], None)
    watcher.see("threw_in", 1, [44], None)
    assert watcher.finish()[0][3] == 1 << 5 | 1 << 18 | 1 << 31 | 1 << 44
    assert watcher.finish()[1] == (1, inference.RANK_MASKS[5] & ~(1 << 5 | 1 << 18), inference.EPS_KEEP,
                                   1 << 31 | 1 << 44, 0)
    big = SimpleNamespace(phase=DEFENCE, pile=(7, 8, 9), pile_mask=1 << 7 | 1 << 8 | 1 << 9)
    conceding = inference.Watcher(0)
    conceding.see("conceded", 3, [], big)
    # the conceded pile is taken after the choice it tells of: its cards are in the hand since
    assert conceding.finish() == ((3, inference._beaters(9), inference.EPS_CONCEDE, 0, big.pile_mask),)
    small = SimpleNamespace(phase=DEFENCE, pile=(10, 11), pile_mask=1 << 10 | 1 << 11)
    conceding.see("conceded", 3, [], small)  # a cheap pile: no observation, but its cards are taken
    assert conceding.finish() == ((3, inference._beaters(9), inference.EPS_CONCEDE, 0,
                                   big.pile_mask | small.pile_mask),)
