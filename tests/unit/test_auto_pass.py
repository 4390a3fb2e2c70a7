"""The table option `auto_pass` (issue 10 part 6): the service passes for a seat whose pass is forced in public view.

Only El Royale has such passes (ER-3.3: a seat holding no card at all is still offered a window and must pass).
Batallion's bidding pass (BA-3.1) is forced only by a weak hand, which BA-3.2 keeps private, and The Four Virtues
and Small Battle have no pass, so they refuse the option. Games here are played on the `Game` aggregate
(Game.play, then Game.play_forced, as the service does after every accepted move) with random legal moves.
"""

from __future__ import annotations

import json
import random
from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.autoplay import pick_move
from domain.game import Game
from domain.games import decider_for, spec_for
from domain.records import parse, replay
from domain.rules import InvalidSetup
from projections.registry import projection_for
from projections.viewers import SPECTATOR
from tests.support import stacked_deck

ROYALE = decider_for("el-royale")


def new_game(n: int, seed: str, auto_pass: bool = True, edition: str = "revised", **stacked) -> Game:
    options = {"edition": edition} | ({"auto_pass": True} if auto_pass else {})
    doc = {"format": "arbiter.record/1", "game": "el-royale", "options": options,
           "players": [{"name": f"P{i}"} for i in range(n)], "seed": seed, "moves": [], **stacked}
    return Game.start(parse(doc))


# Two players, revised. Seat 0 attacks with 7C 7D and, holding no seven, is asked in the join window and must pass
# (a private reason: it holds cards); seat 1 beats with 9D; seat 0 throws in its last cards 9C 9S (three nines: no
# win, ER-4.1); seat 1 passes; the reinforce window must ask seat 0 again (ER-3.3), whose empty hand everyone sees.
EMPTYING = [(0, "attack", ["7C", "7D"]), (0, "pass", None), (1, "beat", ["9D"]), (0, "throw_in", ["9C", "9S"]),
            (1, "pass", None)]


def emptied_hand(auto_pass: bool = True) -> Game:
    """The game above after its five moves, each followed by the forced passes (none until the last)."""
    hands = [["7C", "7D", "9C", "9S"], ["9D", "2C", "JH", "KS"]]
    game = new_game(2, "00ff", auto_pass, deck=stacked_deck(hands), dealer=0, starter=0)
    for seat, kind, cards in EMPTYING[:-1]:
        game.play({"seat": seat, "type": kind} | ({"cards": [ROYALE.parse_card(c) for c in cards]} if cards else {}))
        assert game.play_forced() == 0
    return game


LAST = {"seat": 1, "type": "pass"}


def public_hand_size(game: Game, seat: int) -> int:
    """What every seat sees of a hand (the spectator's table): its size."""
    table = projection_for("el-royale").table(game.state, SPECTATOR, False)
    return next(s["hand_size"] for s in table["seats"] if s["seat"] == seat)


def legal(game: Game) -> list[dict]:
    """The first legal moves (a take from a large laid-out hand has millions of choices: a few hundred will do)."""
    return list(islice(ROYALE.legal_moves(game.state), 300))


def only_a_pass(game: Game) -> bool:
    moves = legal(game)
    return bool(moves) and all(m["type"] == "pass" for m in moves)


def play_randomly(game: Game, rng: random.Random, moves: int = 500, check=None) -> None:
    """Random legal moves, each followed by the forced passes (one at a time, so `check` sees each)."""
    for _ in range(moves):
        if game.outcome.is_over:
            return
        game.play(pick_move(legal(game), rng))
        while True:
            if check:
                check(game)
            if not game.play_forced(limit=1):
                break


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 5), seed=st.binary(min_size=4, max_size=8).map(bytes.hex),
       edition=st.sampled_from(["revised", "classic"]), rng=st.randoms(use_true_random=False))
def test_with_auto_pass_no_seat_the_table_can_see_holds_no_card_is_left_to_pass_by_hand(n, seed, edition, rng):
    game = new_game(n, seed, edition=edition)
    stranded = []

    def after_each_command(g: Game) -> None:
        if not g.outcome.is_over and only_a_pass(g) and public_hand_size(g, g.state.to_act) == 0:
            stranded.append(g.version)

    for _ in range(500):
        if game.outcome.is_over:
            break
        game.play(pick_move(legal(game), rng))
        game.play_forced()
        after_each_command(game)
    assert stranded == []


def test_an_automatic_pass_is_made_only_for_a_seat_every_seat_sees_empty_handed_and_a_seat_with_cards_is_still_asked():
    """The hidden-information side: a seat that holds cards but none of the asked rank must answer the offer itself
    (ER-3.3), or the instant pass would tell the table what it does not hold."""
    made, asked_with_cards = 0, 0
    for k in range(30):
        game = new_game(2 + k % 3, f"{k:08x}")
        rng = random.Random(k)
        for _ in range(500):
            if game.outcome.is_over:
                break
            game.play(pick_move(legal(game), rng))
            while not game.outcome.is_over:
                seat = game.state.to_act
                empty = public_hand_size(game, seat) == 0
                if game.play_forced(limit=1):
                    assert empty, f"an automatic pass for seat {seat}, who holds cards"
                    made += 1
                    continue
                if only_a_pass(game) and not empty:
                    asked_with_cards += 1
                break
    assert asked_with_cards > 0, "the sample never asked a seat with cards for its only move, a pass"


def test_an_automatic_pass_is_the_seat_s_pass_under_its_clause_marked_automatic():
    game = emptied_hand()
    earlier = [e for e in game.collect_events() if isinstance(e, Game.Happened)]
    game.play(LAST)
    assert public_hand_size(game, 0) == 0 and only_a_pass(game) and game.state.to_act == 0
    assert game.play_forced() == 1
    auto = [e for e in game.collect_events() if isinstance(e, Game.Happened)]
    assert [(e.kind, e.clause, e.actor, e.automatic) for e in auto[1:2]] == [("passed", "ER-3.3", "seat:0", True)]
    assert not any(e.automatic for e in earlier + auto[:1] + auto[2:])  # seat 0's own pass at move 2 included
    assert game.moves[-1] == {"seat": 0, "type": "pass"}  # the seat's move in the line of play (and the record)
    assert game.state.to_act == 1 and game.state.phase == "claim"


def test_the_same_position_without_the_option_waits_for_the_seat():
    game = emptied_hand(auto_pass=False)
    game.play(LAST)
    assert game.play_forced() == 0 and game.state.to_act == 0 and only_a_pass(game)


def test_without_the_option_nothing_is_passed_automatically():
    game = new_game(2, "0000002a", auto_pass=False)
    rng = random.Random(42)
    made = []
    for _ in range(500):
        if game.outcome.is_over:
            break
        game.play(pick_move(legal(game), rng))
        made.append(game.play_forced())
    assert set(made) == {0}


def test_a_game_played_with_auto_pass_exports_a_record_whose_replay_gives_the_same_verdict():
    """The automatic passes are moves of the exported record (decided, not re-derived): a replay under any engine
    that knows the moves reaches the same state, with or without the option."""
    game = emptied_hand()
    game.play(LAST)
    game.play_forced()
    play_randomly(game, random.Random(5))
    doc = game.to_record()
    assert doc["moves"][5] == {"seat": 0, "type": "pass"}
    assert doc["options"]["auto_pass"] is True
    assert len(doc["moves"]) == game.move_count
    replayed = replay(parse(json.loads(json.dumps(doc))))
    assert replayed.illegal is None
    assert replayed.verdict()["final"] == ROYALE.final(game.state)
    assert replayed.verdict()["result"] == game.outcome.result
    without = dict(doc, options={k: v for k, v in doc["options"].items() if k != "auto_pass"})
    assert replay(parse(without)).verdict()["final"] == ROYALE.final(game.state)


@pytest.mark.parametrize("value", ["yes", 1, None, []])
def test_auto_pass_must_be_true_or_false(value):
    with pytest.raises(InvalidSetup) as refused:
        ROYALE.configure({"auto_pass": value}, [{"name": "A"}, {"name": "B"}], None, None)
    assert refused.value.field == "options.auto_pass"


@pytest.mark.parametrize("game, players", [("batallion", 3), ("four-virtues", 2), ("small-battle", 2)])
def test_games_without_a_public_forced_pass_refuse_the_option(game, players):
    decider = decider_for(game)
    assert spec_for(game).forced_pass is None
    with pytest.raises(InvalidSetup) as refused:
        decider.configure({"auto_pass": True}, [{"name": f"P{i}"} for i in range(players)], None, None)
    assert "auto_pass" in str(refused.value)
