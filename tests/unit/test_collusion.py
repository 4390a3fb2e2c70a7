"""The collusion screen's told samplers and its test-only colluding pair (domain/collusion.py,
tests/fairplay_players.py; docs/fairplay.md "Collusion"), for the games with a pair test (3 or more seats: El Royale, Batallion):

- a world told a partner's hand holds that hand and the seat's own, agrees with everything the seat saw, and draws
  the third seat's cards again (the told sampler adds the partner's hand and nothing else);
- told nothing, the samplers are what they were (the honest analysis is unchanged);
- a colluder's move reads its partner's hand and no other hidden card of the true state; one who never colludes
  plays as the honest player.

The pair test's statistics are in test_collusion_pair_test.py. This file is quick, so the mutation runs of El Royale
and Batallion take it (bench/mutation.py): the told samplers live in each game's package."""

from __future__ import annotations

import random

import pytest

from domain.analysis import NotAnalysable
from domain.batallion.state import draft
from domain.collusion import drawer, partner_hand
from domain.fairplay import true_states
from domain.games import GAMES, spec_for
from domain.hidden import Inconsistent
from domain.records import parse
from projections.knowledge import seat_knowledge
from projections.registry import projection_for
from projections.viewers import REFEREE, Viewer
from tests.fairplay_players import Player, _Seat, play_game
from tests.unit.test_analysis_samplers import cards_in

PAIR_GAMES = [g for g in GAMES if spec_for(g).analysis is not None and spec_for(g).analysis.hand is not None]
THREE = [Player("heuristic")] * 3
GAMES_SEEN = 6  # games of the slow test: enough for the hand-following moves to stand out at the pair test's precision


def _decisions(game: str, seed: str, players: list[Player], max_moves: int, seat: int = 0):
    record = parse(play_game(game, seed, players, max_moves=max_moves))
    seen, decisions = seat_knowledge(record, seat)
    return record, true_states(record, {seat}), seen, decisions


def test_the_games_with_three_or_more_seats_and_analysis_have_a_pair_test():
    assert set(PAIR_GAMES) == {g for g in GAMES if spec_for(g).analysis is not None and spec_for(g).max_players >= 3}
    assert set(PAIR_GAMES) == {"el-royale", "batallion"}
    with pytest.raises(NotAnalysable, match="no pair test"):
        drawer(spec_for("small-battle"), None, 0, [], {1: [3]})


@pytest.mark.parametrize("game", PAIR_GAMES)
def test_a_told_world_holds_the_partner_s_true_hand_and_draws_the_third_seat_s_again(game):
    spec = spec_for(game)
    table = projection_for(game).table
    record, states, seen, decisions = _decisions(game, "told", THREE, 80)
    redrawn = checked = 0
    for x in decisions[::3]:
        real = states[x.move_index]
        partner = partner_hand(spec, real, 1)
        draw = drawer(spec, record.setup, 0, seen[:x.index], {1: partner})
        for i in range(3):
            world = draw(random.Random(f"{x.index}|{i}"))
            assert spec.analysis.hand(world, 1) == partner
            assert table(world, Viewer.of_seat(0)) == table(real, Viewer.of_seat(0))
            assert cards_in(game, record.setup, table(world, REFEREE)) == cards_in(game, record.setup,
                                                                                  table(real, REFEREE))
            redrawn += spec.analysis.hand(world, 2) != spec.analysis.hand(real, 2)
            checked += 1
    assert checked >= 6 and redrawn, "the third seat's hand was never drawn again"


@pytest.mark.parametrize("game", PAIR_GAMES)
def test_told_no_hand_and_without_inference_the_sampler_draws_exactly_what_it_drew_before(game):
    spec = spec_for(game)
    a = spec.analysis
    record, _, seen, decisions = _decisions(game, "plain", THREE, 80)
    for x in decisions[::4]:
        plain = a.sample(record.setup, 0, seen[:x.index], random.Random(x.index))
        for told in (None, {}):
            state = drawer(spec, record.setup, 0, seen[:x.index], told, infer=False)(random.Random(x.index))
            assert spec.codec.dump_state(state) == spec.codec.dump_state(plain)


@pytest.mark.parametrize("game", PAIR_GAMES)
def test_with_inference_the_sampler_keeps_one_of_its_proposals_where_the_game_has_an_opponent_model(game):
    spec = spec_for(game)
    a = spec.analysis
    record, _, seen, decisions = _decisions(game, "plain", THREE, 80)
    for x in decisions[::8]:
        rng = random.Random(x.index)
        state = drawer(spec, record.setup, 0, seen[:x.index])(random.Random(x.index))
        if a.evidence is None:  # plain dealing, as without inference
            assert spec.codec.dump_state(state) == spec.codec.dump_state(a.sample(record.setup, 0, seen[:x.index], rng))
            continue
        proposals = [spec.codec.dump_state(a.sample(record.setup, 0, seen[:x.index], rng)) for _ in range(a.proposals)]
        assert spec.codec.dump_state(state) in proposals


@pytest.mark.parametrize("game", PAIR_GAMES)
def test_a_partner_s_hand_it_cannot_hold_is_refused(game):
    spec = spec_for(game)
    record, states, seen, decisions = _decisions(game, "refused", THREE, 20)
    x = decisions[0]
    partner = spec.analysis.hand(states[x.move_index], 1)
    with pytest.raises(Inconsistent, match="holds"):  # a card short: the seat saw how many it holds
        drawer(spec, record.setup, 0, seen[:x.index], {1: partner[:-1]})(random.Random(1))
    if game == "el-royale":  # one pack: the seat's own cards cannot be the partner's too
        mine = spec.analysis.hand(states[x.move_index], 0)
        with pytest.raises(Inconsistent):
            drawer(spec, record.setup, 0, seen[:x.index], {1: mine})(random.Random(1))


def _traded(state, a: int, b: int | None, fits=lambda hand: True):
    """A Batallion state with cards of seat a's hand traded for cards of the stock (b None) or of seat b's hand, card
    for card, each trade kept when `fits` the hand it makes (a hand the seat could not tell from the true one)."""
    hands = [list(h) for h in state.hands]
    stock = list(state.stock)
    other = stock if b is None else hands[b]
    for i in range(min(len(hands[a]), len(other))):
        trial = list(hands[a])
        trial[i] = other[i]
        if trial != hands[a] and fits(sorted(trial)):
            hands[a][i], other[i] = other[i], hands[a][i]
    d = draft(state)
    d.hands = tuple(tuple(sorted(h)) for h in hands)
    d.stock = tuple(stock)
    return d.freeze()


def test_a_colluder_s_move_follows_its_partner_s_hand_and_no_other_hidden_card():
    from bots import SeatView

    game = "batallion"
    spec = spec_for(game)
    colluder = Player("heuristic", collude=1.0, partner=1)
    table = projection_for(game).table
    public = [{"seat": s, "name": f"seat {s}", "team": None} for s in range(3)]
    changed = checked = 0
    for g in range(3):
        record, states, seen, decisions = _decisions(game, f"phone-{g}", [colluder] + THREE[1:], 400)
        for x in decisions:
            real = states[x.move_index]
            if not real.stock or not all(real.hands):
                continue

            def move_with(state, real=real, knew=seen[:x.index], seed=record.seed, setup=record.setup):
                seat = _Seat(game, 0, colluder, seed)
                view = SeatView(game, 0, table(real, Viewer.of_seat(0)), public, {})
                return seat.choose(view, game, state, setup.n, seed, setup, knew)

            def fits(hand, knew=seen[:x.index], setup=record.setup):
                try:
                    drawer(spec, setup, 0, knew, {1: hand})(random.Random(0))
                    return True
                except Inconsistent:
                    return False

            played = move_with(real)
            assert move_with(_traded(real, 2, None)) == played  # the third hand and the stock are not its to see
            partner = _traded(real, 1, None, fits)
            if partner.hands[1] != real.hands[1]:
                changed += move_with(partner) != played  # its partner's hand is
                checked += 1
    assert checked >= 10
    assert changed, "the colluder never played otherwise when its partner's hand changed"


@pytest.mark.parametrize("game", PAIR_GAMES)
def test_a_player_that_never_colludes_plays_exactly_as_the_honest_player(game):
    never = [Player("heuristic", collude=0.0, partner=1)] + THREE[1:]
    assert play_game(game, "never", THREE, max_moves=200)["moves"] == play_game(game, "never", never,
                                                                                 max_moves=200)["moves"]
