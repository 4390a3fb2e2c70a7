"""The read side (projections/): what each viewer may see of a game, its event log and the disclosure ledger."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import el_royale as er
from domain.cards import PACK, cards_of, format_card, format_cards, parse_card
from domain.el_royale.state import TAKE
from domain.game import Game
from domain.randomness import Chance
from service.play.referee import Referee
from service.errors import IllegalMove
from projections.el_royale import table as er_table
from projections.viewers import REFEREE, SPECTATOR, Viewer
from projections.views import disclosure_ledger, event_log, view, view_at, who_could_see
from tests.support import stacked_deck
from service.play.new_games import CreateGame

CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")
EVERY_CARD = frozenset(format_cards(PACK))
# Names that cannot be mistaken for a card string.
NAMES = ["North", "East", "South", "West", "Nadia", "Oscar", "Petra", "Quinn"]
TEAMS = ["Reds", "Blues", "Greens", "Golds"]
SEED = "5eed" * 8


def cards_in(obj) -> set[str]:
    """Every card string in the JSON text of a response."""
    return set(CARD.findall(json.dumps(obj)))


def stored(app: Referee, gid) -> list:
    """A game's stored events (read through the event store: `Referee.stored_events` needs `self.events`)."""
    return list(app.events.get(gid))


def attempts(app: Referee, gid) -> list:
    """The stored events of a game's attempts stream (refused moves)."""
    return app.stored_attempts(gid)


def players(n: int, teams: list[str] | None = None) -> list[dict]:
    """n players named like nothing in card notation."""
    return [{"name": NAMES[i]} if teams is None else {"name": NAMES[i], "team": teams[i]} for i in range(n)]


def move(app: Referee, gid, seat: int, kind: str, cards: list[str] | None = None) -> int:
    """Submit a move for a seat; the game's version after it."""
    body = {"type": kind} if cards is None else {"type": kind, "cards": list(cards)}
    return app.submit_move(gid, seat, body)["version"]


def kinds(log: list[dict], kind: str) -> list[dict]:
    """The entries of one type in an event log."""
    return [e for e in log if e["type"] == kind]


# ---------------------------------------------------------------- a small stacked table

THREE_HANDS = [["2C", "3D", "4D", "5D"], ["9C", "6H", "7H", "8H"], ["TS", "JS", "QS", "KS"]]


@dataclass
class Played:
    """A stacked three-seat game: seat 0 attacks 2C, seat 1 beats with 9C, nobody claims, seats 0 and 1 draw."""

    app: Referee
    gid: object
    attacked_at: int
    beat_at: int


@pytest.fixture
def three() -> Played:
    """The stacked three-seat game of `Played`, in an in-memory store."""
    app = Referee("memory://")
    created = app.create_game(CreateGame.from_body({"game": "el-royale", "options": {"edition": "revised"}, "players": players(3),
                               "seed": SEED, "dealer": 0, "starter": 0,
                               "deck": stacked_deck(THREE_HANDS, dealer=0, deck_top=["KH", "QH"])}))
    gid = created["game"].id
    attacked_at = move(app, gid, 0, "attack", ["2C"])
    move(app, gid, 2, "pass")
    move(app, gid, 0, "pass")
    beat_at = move(app, gid, 1, "beat", ["9C"])
    move(app, gid, 2, "pass")
    move(app, gid, 0, "pass")
    move(app, gid, 0, "pass")  # claim window: the attacker first
    move(app, gid, 2, "pass")
    return Played(app, gid, attacked_at, beat_at)


def test_the_stacked_table_plays_out_as_designed(three):
    """Sanity: the pile was discarded, seat 0 drew KH, seat 1 drew QH, seat 1 attacks next."""
    s = three.app.game(three.gid).state
    assert s.pile == () and s.to_act == 1
    assert "KH" in format_cards(cards_of(s.hands[0])) and "QH" in format_cards(cards_of(s.hands[1]))


def test_a_seat_sees_its_own_hand_and_only_sizes_of_the_others(three):
    game = three.app.game(three.gid)
    table = view(game, Viewer.of_seat(2))["table"]
    assert table["hand"] == ["TS", "JS", "QS", "KS"]
    assert [s["hand_size"] for s in table["seats"]] == [4, 4, 4]
    assert all("hand" not in s for s in table["seats"])
    assert "deck" not in table and "discard" not in table
    assert cards_in(table) == {"TS", "JS", "QS", "KS"}


def test_a_spectator_sees_no_hand_and_no_legal_moves(three):
    table = view(three.app.game(three.gid), SPECTATOR)["table"]
    assert "hand" not in table and "legal_moves" not in table
    assert cards_in(table) == set()


def test_the_referee_sees_every_hand_the_deck_in_draw_order_and_the_discard(three):
    game = three.app.game(three.gid)
    table = view(game, REFEREE)["table"]
    assert [s["hand"] for s in table["seats"]] == [format_cards(cards_of(h)) for h in game.state.hands]
    assert table["deck"] == format_cards(game.state.deck[game.state.deck_pos:])
    assert sorted(table["discard"]) == ["2C", "9C"]
    assert table["deck_count"] == len(table["deck"]) and table["discard_count"] == 2


def test_the_seat_to_act_gets_its_legal_moves_as_strings_and_others_get_none(three):
    game = three.app.game(three.gid)
    mine = view(game, Viewer.of_seat(1))["table"]["legal_moves"]
    assert {"type": "attack", "cards": ["QH"]} in mine
    assert all(m["type"] == "attack" for m in mine)
    assert view(game, Viewer.of_seat(0))["table"]["legal_moves"] == []


def test_a_seats_drew_events_show_no_card_to_another_seat(three):
    """ER-2.5: seat 1 drew QH; seat 2 and spectators learn that seat 1 drew, not what."""
    events = stored(three.app, three.gid)
    drew_for = {v: kinds(event_log(events, v), "drew") for v in (Viewer.of_seat(1), Viewer.of_seat(2), SPECTATOR)}
    seat1_draw = [e for e in drew_for[Viewer.of_seat(1)] if e["data"]["seat"] == 1]
    assert [e["data"].get("card") for e in seat1_draw] == ["QH"]
    for other in (Viewer.of_seat(2), SPECTATOR):
        assert all("card" not in e["data"] for e in drew_for[other])
        assert {e["data"]["seat"] for e in drew_for[other]} == {0, 1}
        assert "QH" not in cards_in(event_log(events, other)) and "KH" not in cards_in(event_log(events, other))


def test_the_deal_shows_each_seat_its_own_four_cards_and_spectators_only_counts(three):
    events = stored(three.app, three.gid)
    for seat, hand in enumerate(THREE_HANDS):
        dealt = kinds(event_log(events, Viewer.of_seat(seat)), "dealt")[0]["data"]
        assert sorted(dealt["hand"]) == sorted(hand)
        assert dealt["dealer"] == 0 and dealt["hand_sizes"] == [4, 4, 4] and dealt["deck_count"] == 40
    spectator = kinds(event_log(events, SPECTATOR), "dealt")[0]["data"]
    assert spectator == {"dealer": 0, "hand_sizes": [4, 4, 4], "deck_count": 40}
    assert len(kinds(event_log(events, REFEREE), "dealt")[0]["data"]["order"]) == 52


def test_a_stacked_game_keeps_its_deck_from_everyone_but_the_referee_until_the_end(three):
    events = stored(three.app, three.gid)
    assert view(three.app.game(three.gid), SPECTATOR)["stacked"] is True
    created = {v: event_log(events, v)[0]["data"] for v in (REFEREE, Viewer.of_seat(0), SPECTATOR)}
    assert created[Viewer.of_seat(0)]["stacked"] is True
    assert len(created[REFEREE]["outcomes"]["deal"]) == 52
    assert "outcomes" not in created[Viewer.of_seat(0)] and "outcomes" not in created[SPECTATOR]


def test_replay_at_an_earlier_version_shows_the_earlier_battle_pile(three):
    for viewer in (Viewer.of_seat(2), SPECTATOR, REFEREE):
        assert view_at(three.app, three.gid, three.attacked_at, viewer)["table"]["battle_pile"] == ["2C"]
        assert view_at(three.app, three.gid, three.beat_at, viewer)["table"]["top"] == "9C"
        assert view(three.app.game(three.gid), viewer)["table"]["battle_pile"] == []


def test_replay_shows_a_seat_the_hand_it_held_then_and_nothing_more(three):
    then = view_at(three.app, three.gid, three.attacked_at, Viewer.of_seat(0))
    assert then["version"] == three.attacked_at
    assert then["table"]["hand"] == ["3D", "4D", "5D"]
    assert cards_in(then["table"]) == {"2C", "3D", "4D", "5D"}


def test_rejected_attempts_appear_only_in_the_referees_log(three):
    """A refused attempt can name a card its seat holds: it is evidence for the referee, nobody else."""
    with pytest.raises(IllegalMove):
        move(three.app, three.gid, 2, "attack", ["TS"])  # seat 1 is to act (ER-3.0)
    events, refused = stored(three.app, three.gid), attempts(three.app, three.gid)
    assert three.app.game(three.gid).version == events[-1].originator_version  # a refusal does not move the version
    rejected = kinds(event_log(events, REFEREE, attempts=refused), "move_rejected")
    assert len(rejected) == 1
    assert rejected[0]["data"]["move"]["cards"] == ["TS"] and rejected[0]["clause"] == "ER-3.0"
    assert rejected[0]["version"] == events[-1].originator_version  # placed after the event it met
    for viewer in (Viewer.of_seat(0), Viewer.of_seat(1), Viewer.of_seat(2), SPECTATOR):
        log = event_log(events, viewer, attempts=refused)
        assert kinds(log, "move_rejected") == []
        if viewer != Viewer.of_seat(2):
            assert "TS" not in cards_in(log)


def test_the_log_after_a_version_starts_after_it(three):
    events = stored(three.app, three.gid)
    log = event_log(events, SPECTATOR, after=three.beat_at - 1)
    assert log[0]["version"] == three.beat_at and log[0]["type"] == "beat" and log[0]["data"]["cards"] == ["9C"]
    assert {e["version"] for e in log} == set(range(three.beat_at, len(events) + 1))


def test_log_entries_carry_time_actor_clause_engine_and_chain_link(three):
    events = stored(three.app, three.gid)
    log = event_log(events, SPECTATOR)
    beat = kinds(log, "beat")[0]
    assert beat["actor"] == "seat:1" and beat["clause"] == "ER-3.4" and beat["engine_version"]
    assert beat["at"].endswith("+00:00")
    assert [e["prev"] for e in log] == [e.prev for e in events]


def test_the_seed_and_token_hashes_never_appear_while_the_game_is_on(three):
    game = three.app.game(three.gid)
    events = stored(three.app, three.gid)
    secrets = [SEED, game.referee_token_hash, *game.seat_token_hashes]
    for viewer in (REFEREE, SPECTATOR, *(Viewer.of_seat(s) for s in range(3))):
        text = json.dumps([view(game, viewer), event_log(events, viewer)])
        assert not any(secret in text for secret in secrets)
        assert "seed" not in view(game, viewer)


def test_the_disclosure_ledger_names_who_saw_each_card_first(three):
    ledger = disclosure_ledger(stored(three.app, three.gid))
    assert who_could_see(ledger, "QH", "el-royale") == {1: kinds_version(ledger, "drew", "QH")}
    assert who_could_see(ledger, "2c", "el-royale") == {0: 2, "all": three.attacked_at}
    assert who_could_see(ledger, "KD", "el-royale") == {}
    dealt = [e for e in ledger if e["kind"] == "dealt"]
    assert [e["to"] for e in dealt] == [[0], [1], [2]]
    assert [sorted(e["cards"]) for e in dealt] == [sorted(h) for h in THREE_HANDS]


def kinds_version(ledger: list[dict], kind: str, card: str) -> int:
    """The version of the ledger entry of a kind that disclosed a card."""
    return next(e["version"] for e in ledger if e["kind"] == kind and card in e["cards"])


# ---------------------------------------------------------------- the end of the game


@pytest.fixture
def finished() -> tuple[Referee, object]:
    """Worked example 1: four nines and nothing else; attack with all four and win at once (ER-4.1)."""
    app = Referee("memory://")
    hands = [["9C", "9D", "9H", "9S"], ["2C", "3C", "4C", "5C"]]
    created = app.create_game(CreateGame.from_body({"game": "el-royale", "options": {}, "players": players(2), "seed": SEED,
                               "dealer": 0, "starter": 0, "deck": stacked_deck(hands)}))
    gid = created["game"].id
    with pytest.raises(IllegalMove):
        move(app, gid, 1, "attack", ["2C"])
    move(app, gid, 0, "attack", ["9C", "9D", "9H", "9S"])
    return app, gid


def test_once_the_game_is_over_every_viewer_sees_everything(finished):
    app, gid = finished
    game = app.game(gid)
    assert game.outcome.is_over
    referee = view(game, REFEREE)
    for viewer in (SPECTATOR, Viewer.of_seat(1)):
        seen = view(game, viewer)
        assert seen["status"] == "finished" and seen["result"] == "win" and seen["winner"]["seats"] == [0]
        assert seen["seed"] == SEED
        assert seen["table"]["deck"] == referee["table"]["deck"]
        assert [s["hand"] for s in seen["table"]["seats"]] == [[], ["2C", "3C", "4C", "5C"]]
        log = event_log(stored(app, gid), viewer, attempts=attempts(app, gid))
        assert len(kinds(log, "dealt")[0]["data"]["order"]) == 52
        assert kinds(log, "seed_revealed")[0]["data"]["seed"] == SEED
        assert log[0]["data"]["seed"] == SEED
        assert kinds(log, "move_rejected")  # the whole game is disclosed, evidence included
        assert cards_in(log) == EVERY_CARD


def test_token_hashes_never_appear_even_after_the_end(finished):
    app, gid = finished
    game = app.game(gid)
    hashes = [game.referee_token_hash, *game.seat_token_hashes]
    for viewer in (REFEREE, SPECTATOR, Viewer.of_seat(0)):
        text = json.dumps([view(game, viewer), event_log(stored(app, gid), viewer)])
        assert not any(h in text for h in hashes)


def test_a_replay_of_a_finished_game_shows_every_hand(finished):
    app, gid = finished
    before_the_win = app.game(gid).version - 3  # the win move's attacked, won, then seed_revealed
    then = view_at(app, gid, before_the_win, SPECTATOR)
    assert then["status"] == "in_progress"
    assert then["table"]["seats"][0]["hand"] == ["9C", "9D", "9H", "9S"]


def test_the_ledger_ends_with_every_card_shown_to_all(finished):
    app, gid = finished
    ledger = disclosure_ledger(stored(app, gid))
    assert ledger[-1]["to"] == "all" and set(ledger[-1]["cards"]) == EVERY_CARD
    assert ledger[-1]["version"] == app.game(gid).version
    assert who_could_see(ledger, "2S", "el-royale") == {"all": ledger[-1]["version"]}


# ---------------------------------------------------------------- disputes and rewinds


def test_a_refusal_is_numbered_for_its_own_seat_in_every_log_that_shows_it_and_in_a_tail_of_that_log(three):
    """Seat 2 is refused twice around seat 0's refusal (the stream's attempts 1, 2, 3): its second is "attempt 2" in
    the referee's log, in a tail of it read after the first two, in seat 2's own refusals and on the dispute that names
    it; a spectator's and seat 0's log give that dispute no number of seat 2's."""
    from projections.event_log import own_numbers, own_refusals

    app, gid = three.app, three.gid
    for seat, cards in ((2, ["TS"]), (0, ["3D"]), (2, ["JS"])):  # seat 1 is to act (ER-3.0)
        with pytest.raises(IllegalMove) as refused:
            move(app, gid, seat, "attack", cards)
    assert (refused.value.attempt, refused.value.seat_attempt) == (3, 2)
    app.file_dispute(gid, 2, None, "my turn, surely", attempt=3)
    events, stream = stored(app, gid), attempts(app, gid)
    referee = event_log(events, REFEREE, attempts=stream)
    assert [(e["actor"], e["data"]["seat_attempt"]) for e in kinds(referee, "move_rejected")] == \
        [("seat:2", 1), ("seat:0", 1), ("seat:2", 2)]
    assert kinds(referee, "dispute_filed")[0]["data"]["seat_attempt"] == 2
    tail = event_log(events, REFEREE, after=events[-1].originator_version - 1, attempts=stream)
    assert kinds(tail, "dispute_filed")[0]["data"]["seat_attempt"] == 2
    assert [e["data"]["seat_attempt"] for e in own_refusals(stream, 2)] == [1, 2]
    for viewer in (SPECTATOR, Viewer.of_seat(0), Viewer.of_seat(2)):
        assert "seat_attempt" not in kinds(event_log(events, viewer, attempts=stream), "dispute_filed")[0]["data"]
    mine = own_numbers(event_log(events, Viewer.of_seat(2)), stream, 2)
    assert kinds(mine, "dispute_filed")[0]["data"]["seat_attempt"] == 2
    assert "seat_attempt" not in kinds(own_numbers(event_log(events, Viewer.of_seat(0)), stream, 0), "dispute_filed")[0]["data"]



def test_a_rewind_marks_the_abandoned_branch_and_shows_its_table_to_the_referee_only(three):
    app, gid = three.app, three.gid
    app.file_dispute(gid, 1, three.beat_at, "I meant to concede")
    app.rule_dispute(gid, 1, "upheld", "rewind", "back to before the beat")
    game = app.game(gid)
    assert game.state.phase == "defence" and game.state.pile == (parse_card("2C"),)
    events = stored(app, gid)
    rewound = next(e for e in events if isinstance(e, Game.Rewound))
    for viewer in (Viewer.of_seat(0), SPECTATOR, REFEREE):
        log = event_log(events, viewer)
        marked = {e["version"] for e in log if e.get("rewound")}
        played = {e["version"] for e in log if e["type"] not in ("dispute_filed", "dispute_ruled", "rewound")}
        assert marked == {v for v in played if rewound.to_version < v <= rewound.from_version}
        assert three.beat_at in marked and three.attacked_at not in marked
    seat0 = kinds(event_log(events, Viewer.of_seat(0)), "rewound")[0]["data"]
    assert seat0 == {"dispute": 1, "to_version": three.beat_at - 1, "from_version": rewound.from_version}
    referee = kinds(event_log(events, REFEREE), "rewound")[0]["data"]
    assert referee["table"]["battle_pile"] == ["2C"] and referee["table"]["seats"][1]["hand"] == ["9C", "6H", "7H", "8H"]
    seen = view(game, Viewer.of_seat(2))
    assert seen["rewinds"][0]["to_version"] == three.beat_at - 1
    assert seen["disputes"][0]["ruling"]["decision"] == "upheld"
    assert kinds(event_log(events, SPECTATOR), "dispute_filed")[0]["data"]["claim"] == "I meant to concede"


def test_the_ledger_follows_a_rewind(three):
    app, gid = three.app, three.gid
    app.file_dispute(gid, 1, three.beat_at, "I meant to concede")
    app.rule_dispute(gid, 1, "upheld", "rewind", "")
    move(app, gid, 1, "concede")
    ledger = disclosure_ledger(stored(app, gid))
    # the second branch: the attacker draws the first deck card again after the concession (ER-3.9)
    assert [e["to"] for e in ledger if e["kind"] == "drew" and e["cards"] == ["KH"]] == [[0], [0]]


# ---------------------------------------------------------------- the take phase (ER-5.2)


def take_phase_state():
    """A revised three-seat game in which seat 0 always concedes and is attacked hard, until it is eliminated (ER-5.1)."""
    setup = er.configure({"edition": "revised"}, players(3))
    chance, rng = Chance("0abc"), random.Random(7)
    state = er.initial_state(setup)
    for e in er.start(setup, chance):
        state = er.evolve(state, e)
    while state.phase != TAKE:
        assert state.outcome is None, "the game ended before seat 0 was eliminated"
        legal = list(er.legal_moves(state))
        plays = [m for m in legal if m.get("cards")]
        if state.to_act == 0 and state.phase == "defence":
            chosen = {"seat": 0, "type": "concede"}
        elif state.defender == 0 and plays:
            chosen = max(plays, key=lambda m: len(m["cards"]))
        else:
            chosen = rng.choice(legal)
        state = er.step(state, chosen, chance)[1]
    return state


def test_in_the_take_phase_legal_moves_are_one_summary_entry():
    state = take_phase_state()
    seat = state.to_act
    moves = er_table(state, Viewer.of_seat(seat))["legal_moves"]
    laid = format_cards(cards_of(state.laid_out))
    room = 16 - state.hands[seat].bit_count()
    assert moves == [{"type": "take", "from": laid, "max": max(0, min(room, len(laid)))}]
    everyone = er_table(state, SPECTATOR)
    assert everyone["laid_out"] == {"seat": state.laid_seat, "cards": laid}  # ER-5.2: face up
    assert everyone["eliminated"] == [state.laid_seat]


# ---------------------------------------------------------------- viewers


def test_viewers_are_a_seat_a_spectator_or_the_referee():
    assert Viewer.of_seat(3) == Viewer("seat", 3) and Viewer.of_seat(3).is_seat(3)
    assert REFEREE.is_referee and not SPECTATOR.is_referee and SPECTATOR.seat is None
    for bad in (("judge", None), ("seat", None), ("spectator", 1)):
        with pytest.raises(ValueError):
            Viewer(*bad)


# ---------------------------------------------------------------- the property: nobody sees what they may not


def team_layouts(n: int) -> list[list[str] | None]:
    """Individual play and every legal team layout for n seats (ER-1.2 R)."""
    out: list[list[str] | None] = [None]
    for teams in range(2, n // 2 + 1):
        if n % teams == 0:
            out.append([TEAMS[seat % teams] for seat in range(n)])
    return out


@st.composite
def tables(draw):
    """A random table and a random way to play it."""
    n = draw(st.integers(2, 8))
    options = {"edition": draw(st.sampled_from(["revised", "classic"]))}
    limit = draw(st.one_of(st.none(), st.integers(1, 40)))
    if limit is not None:
        options["battle_limit"] = limit
    spec = {"game": "el-royale", "options": options, "players": players(n, draw(st.sampled_from(team_layouts(n)))),
            "seed": draw(st.binary(min_size=16, max_size=16)).hex()}
    style = Style(passive=draw(st.floats(0.0, 1.0)), eager=draw(st.floats(0.0, 1.0)),
                  victim=draw(st.sampled_from([None, 0])))
    return spec, random.Random(draw(st.integers(0, 2**32))), style


@dataclass(frozen=True)
class Style:
    """How the random players play: how often they pass or concede, play their biggest move, gang up on one seat.

    A victim always concedes and the others play their biggest moves against it, so its hand
    grows past 16 (ER-5.1) and games reach eliminations and the take phase; eager players
    empty their hands and reach wins (ER-4.1).
    """

    passive: float
    eager: float
    victim: int | None


def play_randomly(app: Referee, spec: dict, rng: random.Random, style: Style, max_moves: int = 400):
    """Create a game and drive it through the app: legal moves, talk, shows, refused attempts, a rare rewind."""
    gid = app.create_game(CreateGame.from_body(spec))["game"].id
    for _ in range(max_moves):
        game = app.game(gid)
        s = game.state
        if s.outcome is not None:
            break
        roll = rng.random()
        holders = [seat for seat in range(s.n) if s.hands[seat]]
        if roll < 0.04:
            app.submit_move(gid, rng.randrange(s.n), {"type": "say", "text": "good luck"})
        elif roll < 0.08 and holders:
            seat = rng.choice(holders)
            move(app, gid, seat, "show", [format_card(rng.choice(cards_of(s.hands[seat])))])
        elif roll < 0.12 and [x for x in holders if x != s.to_act]:
            seat = rng.choice([x for x in holders if x != s.to_act])
            with pytest.raises(IllegalMove):
                move(app, gid, seat, "attack", [format_card(rng.choice(cards_of(s.hands[seat])))])
        elif roll < 0.125 and game.move_versions:
            recent = game.move_versions[-3:]  # a rewind far back would undo most of the game
            number = app.file_dispute(gid, 0, rng.choice(recent), "please check")["number"]
            app.rule_dispute(gid, number, "upheld", "rewind", "replaying from before the move")
        else:
            kind, cards = random_legal(s, rng, style)
            move(app, gid, s.to_act, kind, cards)
    return gid


def random_legal(s, rng: random.Random, style: Style) -> tuple[str, list[str] | None]:
    """A random legal move of the seat to act (a take is drawn directly: listing them all can cost 2^16)."""
    if s.phase == TAKE:
        laid = cards_of(s.laid_out)
        room = max(0, min(16 - s.hands[s.to_act].bit_count(), len(laid)))
        return "take", format_cards(rng.sample(laid, rng.randint(0, room)))
    legal = list(er.legal_moves(s))
    soft = [m for m in legal if m["type"] in ("pass", "concede")]
    plays = [m for m in legal if m.get("cards")]
    if style.victim is not None and s.defender == style.victim:
        if s.to_act == style.victim and s.phase == "defence":
            return "concede", None
        eager, passive = 0.9, 0.0
    else:
        eager, passive = style.eager, style.passive
    if plays and rng.random() < eager:
        chosen = max(plays, key=lambda m: len(m["cards"]))
    elif soft and rng.random() < passive:
        chosen = rng.choice(soft)
    else:
        chosen = rng.choice(legal)
    cards = chosen.get("cards")
    return chosen["type"], None if cards is None else format_cards(rng.sample(cards, len(cards)))


def each_version(events: list):
    """The game as at each version, folding its stored events in order (as the repository does, once)."""
    game = None
    for e in events:
        game = e.mutate(game)
        yield game


def hand_of(s, seat: int) -> set[str]:
    return set(format_cards(cards_of(s.hands[seat])))


def public_now(s) -> set[str]:
    """What the table shows everyone at one moment: the battle pile, shown cards, laid-out cards."""
    shown = 0
    for mask in s.shown:
        shown |= mask
    return set(format_cards(s.pile)) | set(format_cards(cards_of(shown | s.laid_out)))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(tables())
def test_no_view_or_log_ever_shows_a_viewer_a_card_it_may_not_see(table):
    """At every version: a seat sees its own hand and what was public; a spectator what was public; all once over.

    The allowed sets are computed from the referee's state at each version, independently of
    projections/: cards ever held by the seat, cards ever in the battle pile, shown or laid out;
    every card once the state has an outcome. The seed is in no output before it is revealed.
    """
    spec, rng, style = table
    app = Referee("memory://", env={"AGGREGATE_CACHE_MAXSIZE": "4"})  # the driver reloads the game at every move
    gid = play_randomly(app, spec, rng, style)
    events = stored(app, gid)
    n, seed = len(spec["players"]), spec["seed"]
    viewers = [Viewer.of_seat(seat) for seat in range(n)] + [SPECTATOR]
    reveal = next((e.originator_version for e in events if isinstance(e, Game.SeedRevealed)), None)
    before_end = events if reveal is None else events[:reveal - 1]
    logs = {viewer: {e["version"]: e for e in event_log(before_end, viewer)} for viewer in viewers}
    public: set[str] = set()
    held: dict[int, set[str]] = {seat: set() for seat in range(n)}
    spot_checks = set(rng.sample(range(1, len(events) + 1), min(5, len(events))))
    for version, game in enumerate(each_version(events), start=1):
        if version in spot_checks:  # the fold below is what the repository gives
            assert view(app.game(gid, version), REFEREE) == view(game, REFEREE)
        s = game.state
        public |= public_now(s)
        for seat in range(n):
            held[seat] |= hand_of(s, seat)
        over = game.seed_revealed or s.outcome is not None
        for viewer in viewers:
            allowed = EVERY_CARD if over else public | (held[viewer.seat] if viewer.role == "seat" else set())
            seen, entry = view(game, viewer), logs[viewer].get(version)
            leaked = cards_in([seen, entry]) - allowed
            assert not leaked, f"version {version}: {viewer} sees {sorted(leaked)}"
            if not game.seed_revealed:
                assert seed not in json.dumps([seen, entry])
            if viewer.role == "seat" and s.phase == TAKE and s.to_act == viewer.seat and not over:
                assert [m["type"] for m in seen["table"]["legal_moves"]] == ["take"]
    for log in logs.values():
        assert kinds(log.values(), "move_rejected") == []
        assert all(set(e["data"]) == {"k", "count"} for e in kinds(log.values(), "reshuffled"))
    # The log read at any moment before the end says what the whole log before the end says.
    for version in rng.sample(range(1, len(before_end) + 1), min(12, len(before_end))):
        for viewer in viewers:
            for entry in event_log(events[:version], viewer):
                later = logs[viewer][entry["version"]]
                assert {**entry, "rewound": None} == {**later, "rewound": None}


def test_the_random_players_reach_shuffles_eliminations_picks_endings_and_rewinds():
    """The property above is only as good as its games: this driver reaches every case that hides or reveals cards."""
    wanted = {"reshuffled", "eliminated", "took", "won", "drawn", "Rewound", "Refused", "showed"}
    seen: set[str] = set()
    rng = random.Random(11)
    for i in range(60):
        n = rng.choice([2, 3, 4, 5])
        options = {"edition": "revised" if i % 3 else "classic"}
        if i % 4 == 3:
            options["battle_limit"] = 20
        spec = {"game": "el-royale", "options": options, "players": players(n), "seed": f"{i:032x}"}
        style = Style(passive=rng.random(), eager=rng.random(), victim=0 if i % 2 else None)
        app = Referee("memory://", env={"AGGREGATE_CACHE_MAXSIZE": "4"})
        gid = play_randomly(app, spec, rng, style)
        events = stored(app, gid)
        seen |= {e.kind for e in events if isinstance(e, Game.Happened)} | {type(e).__name__ for e in events}
        seen |= {type(e).__name__ for e in attempts(app, gid)}
        if wanted <= seen:
            return
    raise AssertionError(f"never reached: {sorted(wanted - seen)}")
