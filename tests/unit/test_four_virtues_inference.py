"""The Four Virtues' inference from the opponent's public choices (domain/four_virtues/inference.py; docs/fairplay.md
"The sampler, and what the null needs"): a discard or `done` says the hand then held no meld and no addition, and
the fair-play worlds are drawn with that weight (domain.fairplay._sampler)."""

from __future__ import annotations

import random

from domain.fairplay import _sampler, true_states
from domain.four_virtues import inference
from domain.four_virtues.clauses import Meld
from domain.games import spec_for
from domain.records import parse
from projections.knowledge import seat_knowledge
from tests.conftest import examples
from tests.fairplay_players import Player, play_game
from tests.unit.test_four_virtues_scoring import cs, deal

SPEC = spec_for("four-virtues")
A = SPEC.analysis


def _table(*melds: str):
    """A public state (seat 0 watching seat 1) with `melds` on the table, each laid by seat 0."""
    state = deal("AC 2C 3C 4C 5C 6C 7C 8C 9C TC", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD", "AH")[0]
    state.melds = tuple(Meld(tuple(cs(m)), None, 0, (0,) * len(cs(m)), None, len(cs(m))) for m in melds)
    return state


def _discarded(table, card: str, watcher=None):
    w = watcher or inference.Watcher(0)
    w.see({"type": "discarded", "seat": 1, "cards": cs(card)}, table)
    return w


def test_a_discard_with_a_set_in_hand_goes_against_the_model_and_a_hand_without_one_does_not():
    obs = _discarded(_table(), "KS").finish()
    assert inference.weight(obs, 1, tuple(sorted(cs("7C 7D 7H 2S 9S")))) == inference.EPS_MELD
    assert inference.weight(obs, 1, tuple(sorted(cs("7C 7D 8H 2S 9S")))) == 1.0


def test_a_run_a_clubs_lowering_and_an_addition_to_the_table_each_count_as_something_that_scores():
    plain = _table()
    assert inference.scores(plain, 1, tuple(sorted(cs("4H 5H 6H KD"))))  # a run (FV-2.3)
    assert not inference.scores(plain, 1, tuple(sorted(cs("8C 8D TS"))))  # 8-8-10 is no meld without clubs
    assert inference.scores(plain, 1, tuple(sorted(cs("8C 8D TS JC"))))  # with a clubs face the 10 comes down (FV-3.3)
    assert not inference.scores(plain, 1, tuple(sorted(cs("8C 8D TS JD"))))  # a diamonds face lowers nothing
    on_table = _table("4S 5S 6S")
    assert inference.scores(on_table, 1, tuple(sorted(cs("7S KD"))))  # an addition (FV-2.4)
    assert not inference.scores(on_table, 1, tuple(sorted(cs("9S KD"))))


def test_the_hand_then_is_the_hand_now_with_what_was_played_since_and_without_what_was_taken():
    table = _table()
    w = _discarded(table, "2S")  # the discard: the hand then held 2S
    w.see({"type": "drew", "seat": 1, "source": "discard", "cards": cs("7H")}, table)  # a seen card joins it after
    w.see({"type": "melded", "seat": 1, "cards": cs("7C 7D 7H"), "face": None}, table)  # then leaves it in a meld
    obs = w.finish()
    # now it holds 5S 9D: then it held 5S 9D 2S 7C 7D (7H came later), a pair of sevens, no meld
    assert inference.weight(obs, 1, tuple(sorted(cs("5S 9D")))) == 1.0
    # had it held 7S now, it would have held three sevens at the discard
    assert inference.weight(obs, 1, tuple(sorted(cs("5S 7S")))) == inference.EPS_MELD


def test_a_draw_from_the_stock_or_a_new_deal_drops_the_observations_and_the_seats_own_discards_make_none():
    table = _table()
    three = tuple(sorted(cs("7C 7D 7S")))
    w = _discarded(table, "2S")
    w.see({"type": "drew", "seat": 1, "source": "stock", "cards": [1000, 1001]}, table)  # unseen cards: hand unknown
    assert inference.weight(w.finish(), 1, three) == 1.0
    w = _discarded(table, "2S")
    w.see({"type": "dealt", "round": 2}, table)
    assert inference.weight(w.finish(), 1, three) == 1.0
    own = inference.Watcher(0)
    own.see({"type": "discarded", "seat": 0, "cards": cs("2S")}, table)
    assert inference.weight(own.finish(), 1, three) == 1.0


def _decisions(label: str, opponent: str = "heuristic"):
    record = parse(play_game("four-virtues", label, [Player("heuristic"), Player(opponent)]))
    states = true_states(record, {0})
    seen, decisions = seat_knowledge(record, 0)
    return record, [(seen[:x.index], states[x.move_index]) for x in decisions if x.move_index in states]


def test_the_heuristic_opponents_true_hand_never_goes_against_the_model():
    """The model is the heuristic bot's rule: against that bot the true state always weighs 1, at every decision."""
    for g in range(examples(3, under_mutation=1)):
        record, decisions = _decisions(f"inference-{g}")
        folded = [A.fold(record.setup, 0, seen) for seen, _ in decisions]
        assert any(f[3] for f in folded)  # the opponent's discards were observed
        assert all(A.evidence(f, state) == 1.0 for f, (_, state) in zip(folded, decisions))


def test_the_fair_play_worlds_drawn_with_the_model_fit_the_opponents_choices_better_than_plain_deals():
    record, decisions = _decisions("inference-worlds")

    def fit(draw, folded, n):  # the mean likelihood of the opponent's choices over n drawn worlds
        return sum(A.evidence(folded, draw(random.Random(k))) for k in range(n)) / n

    # a decision where plain deals often give the opponent a meld it would have laid down
    seen = next(s for s, _ in decisions[10:] if fit(_sampler(A, record.setup, 0, s, infer=False),
                                                      A.fold(record.setup, 0, s), 40) < 0.8)
    folded = A.fold(record.setup, 0, seen)
    weighed, plain = _sampler(A, record.setup, 0, seen), _sampler(A, record.setup, 0, seen, infer=False)
    n = examples(300, under_mutation=60)
    assert fit(weighed, folded, n) > fit(plain, folded, n) + 0.1
    # plain dealing is the game's deal, unchanged: the same state for the same stream
    assert plain(random.Random(7)).hands == A.deal(folded, random.Random(7)).hands
