"""The event-sourced aggregate `domain.game.Game`: one stored event per decider event, state is the fold of them."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from eventsourcing.application import Application

from domain import ENGINE_VERSION
from domain.cards import parse_card
from domain.el_royale import encode_event
from domain.game import Game
from domain.records import Record, parse, replay
from domain.rules import RuleViolation
from tests.support import record

RECORDS = Path(__file__).resolve().parent.parent / "records" / "el-royale"
# Samples whose every move is legal, covering a win, reshuffles, eliminations with takes, say and show.
LEGAL = ["example1-00-classic", "example3-06-revised", "random-00-2p-classic", "random-01-3p-classic",
         "random-04-5p-revised"]


def load_doc(name: str) -> dict:
    """A sample record document."""
    return json.loads((RECORDS / f"{name}.json").read_text())


def load_record(name: str) -> Record:
    """A validated sample record."""
    return parse(load_doc(name))


def decider_events(rec: Record) -> list[dict]:
    """Every event the bare decider produces for a legal record: the opening, then each move's."""
    result = replay(rec, keep_events=True)
    assert result.illegal is None
    return result.events


def played(rec: Record) -> Game:
    """A Game started from a record with every move played."""
    game = Game.start(rec)
    for move in rec.moves:
        game.play(move)
    return game


def fold(rec: Record, events: list[dict]) -> object:
    """The decider's fold of events from the initial state."""
    d = rec.decider
    state = d.initial_state(rec.setup)
    for e in events:
        state = d.evolve(state, e)
    return state


def happened(events) -> list:
    """The Game.Happened events among aggregate events."""
    return [e for e in events if isinstance(e, Game.Happened)]


# ---------------------------------------------------------------- one stored event per decider event


@pytest.mark.parametrize("name", LEGAL)
def test_every_decider_event_becomes_one_happened_event(name):
    """Start and play a record: the Happened events are the decider's events, one each, same kinds in order."""
    rec = load_record(name)
    expected = decider_events(rec)
    game = played(rec)
    got = happened(game.pending_events)
    assert len(got) == len(expected)
    assert [e.kind for e in got] == [e["type"] for e in expected]
    assert [e.data for e in got] == [encode_event(e) for e in expected]


def test_happened_kinds_include_deal_battle_attack_pass_and_draw():
    """A game with a concession then a draw stores dealt, battle_started, attacked, passed, conceded, drew, won."""
    game = played(load_record("example1-00-classic"))
    kinds = {e.kind for e in happened(game.pending_events)}
    assert {"dealt", "battle_started", "attacked", "passed", "conceded", "drew", "won"} <= kinds


def test_created_is_the_first_event_and_the_seed_is_revealed_last_once_the_game_ends():
    """Game.Created comes first, then the game's events, then (the game won) one SeedRevealed with the seed."""
    game = played(load_record("example1-00-classic"))
    events = game.pending_events
    assert isinstance(events[0], Game.Created)
    assert not any(isinstance(e, Game.Created) for e in events[1:])
    assert isinstance(events[-1], Game.SeedRevealed) and events[-1].seed == game.seed
    assert len(events) == 2 + len(happened(events))
    assert game.version == len(events)


def test_play_returns_the_events_it_stored():
    """play() returns the move's decider events, and exactly that many Happened events are added."""
    rec = load_record("random-01-3p-classic")
    game = Game.start(rec)
    for move in rec.moves:
        before = len(game.pending_events)
        events = game.play(move)
        added = game.pending_events[before:]
        assert events and [e.kind for e in added] == [e["type"] for e in events]


def test_stored_events_hold_cards_as_strings():
    """Happened data writes cards as card strings (the log reads like the table), not ints."""
    game = played(load_record("example1-00-classic"))
    dealt = next(e for e in happened(game.pending_events) if e.kind == "dealt")
    assert len(dealt.data["order"]) == 52 and all(isinstance(c, str) and len(c) == 2 for c in dealt.data["order"])
    attacked = next(e for e in happened(game.pending_events) if e.kind == "attacked")
    assert all(isinstance(c, str) for c in attacked.data["cards"])
    drew = next(e for e in happened(game.pending_events) if e.kind == "drew")
    assert isinstance(drew.data["card"], str)


# ---------------------------------------------------------------- live state equals the decider's


@pytest.mark.parametrize("name", LEGAL)
def test_live_state_equals_the_bare_replay(name):
    """The aggregate's state after playing a record equals the bare decider replay's state."""
    rec = load_record(name)
    assert played(rec).state == replay(rec).state


# ---------------------------------------------------------------- save and reload


@pytest.mark.parametrize("name", LEGAL)
def test_reloaded_state_equals_live_state(name):
    """Saved into an in-memory Application and reloaded, the game's state, moves and version are the live ones."""
    game = played(load_record(name))
    app = Application()
    app.save(game)
    loaded = app.repository.get(game.id)
    assert loaded.state == game.state
    assert loaded.moves == game.moves
    assert loaded.version == game.version


def test_stored_log_holds_one_happened_per_decider_event():
    """The event store holds Created plus exactly the decider events, in order, with their kinds."""
    rec = load_record("random-00-2p-classic")
    game = played(rec)
    app = Application()
    app.save(game)
    stored = list(app.events.get(game.id))
    assert isinstance(stored[0], Game.Created)
    assert [e.kind for e in stored[1:]] == [e["type"] for e in decider_events(rec)]


@pytest.mark.parametrize("name", ["example1-00-classic", "random-01-3p-classic", "random-04-5p-revised"])
def test_loading_at_an_earlier_version_equals_the_fold_of_the_first_events(name):
    """repository.get(id, version=k) has the state of the first k-1 decider events (version 1 is Created)."""
    rec = load_record(name)
    events = decider_events(rec)
    game = played(rec)
    app = Application()
    app.save(game)
    last = game.version
    for k in sorted({1, 2, 3, 4, 5, last // 3, last // 2, last - 1, last}):
        loaded = app.repository.get(game.id, version=k)
        assert loaded.version == k
        assert loaded.state == fold(rec, events[: k - 1]), f"version {k}"


def test_reloaded_game_can_keep_playing():
    """A game saved half way, reloaded and played on, ends in the same state as one played straight through."""
    rec = load_record("random-04-5p-revised")
    half = len(rec.moves) // 2
    game = Game.start(rec)
    for move in rec.moves[:half]:
        game.play(move)
    app = Application()
    app.save(game)
    loaded = app.repository.get(game.id)
    for move in rec.moves[half:]:
        loaded.play(move)
    app.save(loaded)
    again = app.repository.get(game.id)
    straight = played(rec)
    assert loaded.state == straight.state
    assert again.state == straight.state
    assert again.moves == straight.moves


# ---------------------------------------------------------------- illegal moves


def test_illegal_move_raises_rule_violation_and_adds_no_event():
    """An illegal move raises RuleViolation with its clause, and leaves events, version and state unchanged."""
    rec = load_record("example2-04-classic")  # move 4: a classic beat with four cards (ER-3.4)
    game = Game.start(rec)
    for move in rec.moves[:4]:
        game.play(move)
    events_before, version_before, state_before = len(game.pending_events), game.version, game.state
    moves_before = list(game.moves)
    with pytest.raises(RuleViolation) as info:
        game.play(rec.moves[4])
    assert info.value.clause == "ER-3.4"
    assert len(game.pending_events) == events_before
    assert game.version == version_before
    assert game.state == state_before
    assert game.moves == moves_before


def test_game_stays_playable_after_an_illegal_move():
    """After a rejected move the game accepts the legal one (the rejected move left no trace)."""
    hands = [["7C", "8C", "9C", "TC"], ["7D", "8D", "9D", "TD"], ["7H", "8H", "9H", "TH"]]
    rec = parse(record(hands, [(0, "attack", ["7C"])]))
    game = Game.start(rec)
    with pytest.raises(RuleViolation) as info:
        game.play({"seat": 1, "type": "attack", "cards": [parse_card("7D")]})  # out of turn
    assert info.value.clause == "ER-3.0"
    game.play(rec.moves[0])
    assert game.state == replay(rec).state


def test_move_after_the_win_raises_er_4_5():
    """Once the game is won, play() raises RuleViolation ER-4.5 and stores nothing."""
    game = played(load_record("example1-00-classic"))
    assert game.outcome.result == "win"
    before = len(game.pending_events)
    with pytest.raises(RuleViolation) as info:
        game.play({"seat": 0, "type": "say", "text": "one more?"})
    assert info.value.clause == "ER-4.5"
    assert len(game.pending_events) == before


# ---------------------------------------------------------------- the Created event


def test_created_records_engine_version_and_seed_commitment():
    """Created holds the engine version and commitment = sha256(bytes.fromhex(seed)) (contract §4)."""
    rec = load_record("random-00-2p-classic")
    game = Game.start(rec)
    created = game.pending_events[0]
    assert isinstance(created, Game.Created)
    assert created.engine_version == ENGINE_VERSION
    assert created.commitment == hashlib.sha256(bytes.fromhex(rec.seed)).hexdigest()
    assert created.game == "el-royale"
    assert game.commitment == created.commitment and game.engine_version == ENGINE_VERSION


def test_reloaded_game_keeps_engine_version_and_commitment():
    """The commitment and engine version survive a save and reload."""
    rec = load_record("example3-06-revised")
    game = played(rec)
    app = Application()
    app.save(game)
    loaded = app.repository.get(game.id)
    assert loaded.engine_version == ENGINE_VERSION
    assert loaded.commitment == hashlib.sha256(bytes.fromhex(rec.seed)).hexdigest()
    assert loaded.stacked is True


# ---------------------------------------------------------------- to_record


@pytest.mark.parametrize("name", LEGAL)
def test_to_record_replays_to_the_same_verdict(name):
    """to_record() is a valid record whose replay gives the same verdict as the original record."""
    rec = load_record(name)
    doc = played(rec).to_record()
    assert replay(parse(doc)).verdict() == replay(rec).verdict()


def test_to_record_of_a_stacked_sample_is_the_sample():
    """A canonical stacked-deck sample comes back as the same document."""
    doc = load_doc("example1-00-classic")
    assert played(parse(doc)).to_record() == doc


@pytest.mark.parametrize("name", ["random-00-2p-classic", "random-04-5p-revised"])
def test_to_record_of_a_reloaded_game_equals_the_live_one(name):
    """The reloaded aggregate (moves rebuilt from events) exports the same record as the live one."""
    game = played(load_record(name))
    app = Application()
    app.save(game)
    assert app.repository.get(game.id).to_record() == game.to_record()


def test_to_record_after_start_has_no_moves_and_same_deal():
    """A game with no moves exports a record with no moves that deals the same cards."""
    rec = load_record("random-01-3p-classic")
    game = Game.start(rec)
    doc = game.to_record()
    assert doc["moves"] == []
    assert replay(parse(doc)).state == game.state


def test_each_refusal_is_numbered_among_its_own_seats_refusals_only():
    """domain.attempts.seat_numbers: the stream's order, counted per actor (what every page shows)."""
    from domain.attempts import seat_numbers

    assert seat_numbers(["seat:1", "seat:0", "seat:1", "seat:1", "seat:0"]) == [1, 1, 2, 3, 2]
    assert seat_numbers([]) == []
