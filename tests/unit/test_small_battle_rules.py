"""Small Battle's rules as data (rules/small-battle.md): a whole stacked game move by move, every refusal with its
clause and reason, the set-up and record checks, the honesty check. Written to kill the mutants that
`make mutation GAME=small-battle` found surviving (docs/mutation.md)."""

from __future__ import annotations

import hashlib

import pytest

import domain.small_battle as sb
from domain.cards import parse_card
from domain.randomness import Chance
from domain.rules import InvalidSetup, MalformedMove, NextDeal, Outcome, RuleViolation

SEED = "5b"
SETUP = sb.configure({}, [{"name": "Ann"}, {"name": "Bob"}], None, 0)  # seat 0 strikes first


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def chance_with_pile(top: str) -> Chance:
    order = cards(top)
    return Chance(SEED, {"pile": order + [c for c in sb.codec.PILE if c not in order]})


def started(setup=SETUP, chance=None):
    chance = chance or Chance(SEED)
    state = sb.initial_state(setup)
    for e in sb.start(setup, chance):
        state = sb.evolve(state, e)
    return state, chance


def refusal(state, chance, move) -> tuple[str, str]:
    with pytest.raises(RuleViolation) as e:
        sb.decide(state, move, chance)
    return e.value.clause, e.value.reason


# ---------------------------------------------------------------- a whole game, move by move

# seat 0 (clubs 2..9 in order) against seat 1 (spades 9..2); the pile's top: AD 3H 3D 4D 5D 6D 7D 8D 9D TD TH
PILE_TOP = "AD 3H 3D 4D 5D 6D 7D 8D 9D TD TH"
GAME = [  # (move, its events in stored form, commitments aside; to_act after; what each event shows to whom)
    ((0, "arrange", {"formation": list("23456789")}),
     [{"type": "arranged", "seat": 0, "formation": [2, 3, 4, 5, 6, 7, 8, 9]}], (1,),
     [({0: cards("2C 3C 4C 5C 6C 7C 8C 9C")}, [])]),
    ((1, "arrange", {"formation": list("98765432")}),
     [{"type": "arranged", "seat": 1, "formation": [9, 8, 7, 6, 5, 4, 3, 2]},
      {"type": "drew", "seat": 0, "card": "AD"}], (0,),
     [({1: cards("9S 8S 7S 6S 5S 4S 3S 2S")}, []), ({}, cards("AD"))]),
    ((0, "strike", {"position": 3}),  # SB-2.3: an Ace reveals seat 1's 6 at position 3, the turn passes
     [{"type": "struck", "seat": 0, "position": 3, "card": "AD", "rank": 6, "result": "revealed"},
      {"type": "drew", "seat": 1, "card": "3H"}], (1,),
     [({}, cards("6S")), ({}, cards("3H"))]),
    ((1, "strike", {"position": 0}),  # SB-2.2: 3 beats the 2: removed, seat 1 strikes again
     [{"type": "struck", "seat": 1, "position": 0, "card": "3H", "rank": 2, "result": "removed"},
      {"type": "drew", "seat": 1, "card": "3D"}], (1,),
     [({}, []), ({}, cards("3D"))]),
    ((1, "strike", {"position": 1}),  # SB-2.2: 3 against 3 holds, the turn passes
     [{"type": "struck", "seat": 1, "position": 1, "card": "3D", "rank": 3, "result": "held"},
      {"type": "drew", "seat": 0, "card": "4D"}], (0,),
     [({}, []), ({}, cards("4D"))]),
]
for position, card, rank, following in ((7, "4D", 2, "5D"), (6, "5D", 3, "6D"), (5, "6D", 4, "7D"), (4, "7D", 5, "8D"),
                                        (3, "8D", 6, "9D"), (2, "9D", 7, "TD"), (1, "TD", 8, "TH")):
    GAME.append(((0, "strike", {"position": position}),
                 [{"type": "struck", "seat": 0, "position": position, "card": card, "rank": rank, "result": "removed"},
                  {"type": "drew", "seat": 0, "card": following}], (0,),
                 [({}, []), ({}, cards(following))]))
GAME.append(((0, "strike", {"position": 0}),  # SB-3.1: the eighth removal wins; SB-3.2: no card drawn after it
             [{"type": "struck", "seat": 0, "position": 0, "card": "TH", "rank": 9, "result": "removed"},
              {"type": "won", "seat": 0}], (),
             [({}, []), ({}, [])]))
CLAUSE = {"arranged": "SB-1.3", "drew": "SB-2.1", "won": "SB-3.1", "removed": "SB-2.2", "held": "SB-2.2",
          "revealed": "SB-2.3"}


def play_the_game():
    chance = chance_with_pile(PILE_TOP)
    state, _ = started(SETUP, chance)
    log = []
    for (seat, kind, fields), _, _, _ in GAME:
        before = state
        events, state = sb.step(state, {"seat": seat, "type": kind, **fields}, chance)
        log.append((before, events, state))
    return chance, state, log


def test_each_move_of_a_stacked_game_makes_exactly_its_events_and_passes_the_turn_by_the_rules():
    chance, state, log = play_the_game()
    assert sb.to_act(sb.initial_state(SETUP)) == (0, 1)  # SB-4.1: both may arrange, either first
    for ((seat, kind, fields), expected, to_act, shown), (before, events, after) in zip(GAME, log):
        stored = [{k: v for k, v in sb.encode_event(e).items() if k != "commitment"} for e in events]
        assert stored == expected
        assert [sb.decode_event(sb.encode_event(e)) for e in events] == events
        assert sb.to_act(after) == to_act
        assert sb.decide(before, {"seat": seat, "type": kind, **fields}, chance) == events
        state = before
        for e, (private, public) in zip(events, shown):
            assert sb.disclosed(state, e) == (private, public)
            assert sb.clause_of(e) == CLAUSE[e.get("result", e["type"])]
            state = sb.evolve(state, e)
        assert state == after
    assert sb.outcome(state) == Outcome("win", (0,), None)
    assert sb.outcome(log[0][0]) == Outcome(None)


def test_the_moves_a_record_holds_are_the_moves_played_and_automatic_steps_are_none():
    _, _, log = play_the_game()
    moves = [sb.move_of(e) for _, events, _ in log for e in events]
    played = [{"seat": seat, "type": kind, **fields} for (seat, kind, fields), *_ in GAME]
    assert [m for m in moves if m is not None] == played
    assert sb.move_of({"type": "said", "seat": 1, "text": "hi"}) == {"seat": 1, "type": "say", "text": "hi"}
    assert sb.move_of({"type": "drew", "seat": 0, "card": 13}) is None
    assert sb.clause_of({"type": "said", "seat": 1, "text": "hi"}) == "SB-4.2"
    assert sb.clause_of({"type": "started"}) == "SB-1.2"


def test_at_the_end_each_formation_shows_what_remains_and_the_pile_holds_all_eighteen_cards():
    _, state, _ = play_the_game()
    assert sb.final(state) == {
        "hands": {"0": ["3C", "4C", "5C", "6C", "7C", "8C", "9C"], "1": []},
        "remaining": {"0": {"1": "3", "2": "4", "3": "5", "4": "6", "5": "7", "6": "8", "7": "9"}, "1": {}},
        "revealed": {"0": [], "1": [3]},
        "drawn": None,
        "pile": "AH 4H 5H 6H 7H 8H 9H AD 3H 3D 4D 5D 6D 7D 8D 9D TD TH".split(),
    }
    assert state.remaining(0) == [1, 2, 3, 4, 5, 6, 7] and state.remaining(1) == []
    assert list(sb.legal_moves(state)) == []


def test_a_state_is_saved_as_plain_data_and_loaded_back_equal():
    _, state, log = play_the_game()
    dumped = sb.dump_state(state)
    commitments = dumped.pop("commitments")
    assert [len(c) for c in commitments] == [8, 8]
    assert dumped == {
        "setup": {"names": ["Ann", "Bob"], "dealer": None, "starter": 0}, "n": 2, "starter": 0, "to_act": None,
        "formations": [[2, 3, 4, 5, 6, 7, 8, 9], [9, 8, 7, 6, 5, 4, 3, 2]],
        "removed": [[0], [0, 1, 2, 3, 4, 5, 6, 7]], "revealed": [[], [3]],
        "pile": cards("AH 4H 5H 6H 7H 8H 9H AD 3H 3D 4D 5D 6D 7D 8D 9D TD TH"), "drawn": None,
        "outcome": ["win", [0]],
    }
    for s in [state] + [after for _, _, after in log] + [sb.initial_state(SETUP)]:
        loaded = sb.load_state(sb.dump_state(s))
        assert loaded == s and loaded.__dict__ == s.__dict__
    mid = log[4][2]
    assert sb.dump_state(mid)["drawn"] == parse_card("4D") and sb.dump_state(mid)["outcome"] is None
    assert sb.load_state(sb.dump_state(mid)).outcome is None


def test_a_formation_is_committed_as_the_sha256_of_salt_position_and_rank():
    """SB-1.3: commitment p = sha256(salt | p | rank), the salt drawn from the seed's stream `salt:SEAT:p`."""
    _, state, log = play_the_game()
    chance = Chance(SEED)
    for seat, formation in ((0, "23456789"), (1, "98765432")):
        expected = [hashlib.sha256(f"{chance.salt(f'salt:{seat}:{p}')}|{p}|{r}".encode()).hexdigest()
                    for p, r in enumerate(formation)]
        assert list(state.commitments[seat]) == expected
        assert sb.clauses.commitments(chance, seat, tuple(int(r) for r in formation)) == expected
    assert log[0][1][0]["commitment"] == list(state.commitments[0])


def test_the_honesty_check_counts_every_commitment_and_strike_and_names_each_mismatch():
    """SB-1.3, SB-3.2: a whole honest game checks; a changed formation, a false result or a strike on an
    unarranged formation is named."""
    events = [e for _, evs, _ in play_the_game()[2] for e in evs]
    assert sb.honesty(events, SEED) == {"ok": True, "problems": [], "commitments": 16, "strikes": 11}
    forged = [dict(e, formation=[3, 2, 4, 5, 6, 7, 8, 9]) if e["type"] == "arranged" and e["seat"] == 0 else e
              for e in events]
    report = sb.honesty(forged, SEED)
    assert report["problems"] == ["seat 0's position 0 does not match its commitment",
                                  "seat 0's position 1 does not match its commitment",
                                  "the strike of seat 1 on position 0 does not follow from the formation",
                                  "the strike of seat 1 on position 1 does not follow from the formation"]
    assert not report["ok"] and report["commitments"] == 16
    lying = [dict(e, result="held") if e["type"] == "struck" and e["card"] == parse_card("TD") else e for e in events]
    assert sb.honesty(lying, SEED)["problems"] == ["the strike of seat 0 on position 1 does not follow from the formation"]
    wrong_rank = [dict(e, rank=5) if e["type"] == "struck" and e["card"] == parse_card("AD") else e for e in events]
    assert sb.honesty(wrong_rank, SEED)["problems"] == ["the strike of seat 0 on position 3 does not follow from the formation"]
    alone = [{"type": "struck", "seat": 1, "position": 7, "card": parse_card("AD"), "rank": 4, "result": "revealed"}]
    assert sb.honesty(alone, SEED) == {"ok": False, "commitments": 0, "strikes": 1, "problems": [
        "the strike of seat 1 on position 7 does not follow from the formation"]}
    assert sb.honesty([], SEED) == {"ok": True, "problems": [], "commitments": 0, "strikes": 0}


# ---------------------------------------------------------------- refusals: clause and reason

def test_no_move_is_accepted_after_the_win():
    chance, state, _ = play_the_game()
    for move in ({"seat": 1, "type": "strike", "position": 1}, {"seat": 0, "type": "say", "text": "gg"}):
        assert refusal(state, chance, move) == ("SB-3.1", "the game is over: no further moves")


@pytest.mark.parametrize("formation, reason", [
    (list("234567899"), "a formation holds eight cards, one each of 2..9 (got 9)"),  # SB-1.3 with a repeat
    (list("2345678"), "a formation holds eight cards, one each of 2..9 (got 7)"),
    ([], "a formation holds eight cards, one each of 2..9 (got 0)"),
    (list("23456782"), "a formation holds one each of 2..9: a rank is repeated"),
    (list("2345678") + ["10"], "rank '10' is not one of 2..9"),
    (["1"] + list("2345678"), "rank '1' is not one of 2..9"),
    (list("2345678") + ["123456789"], "rank '12345678' is not one of 2..9"),
    (list("23456789") + ["A"], "rank 'A' is not one of 2..9"),
])
def test_a_formation_must_hold_each_of_two_to_nine_once(formation, reason):
    """SB-1.3, SB-4.1: exactly the eight ranks 2..9; a wrong length, a repeat or a rank outside 2..9 is illegal."""
    state, chance = started()
    assert refusal(state, chance, {"seat": 0, "type": "arrange", "formation": formation}) == ("SB-1.3", reason)
    assert sb.clauses.formation_problem(formation) == reason
    assert sb.clauses.formation_problem(list("98765432")) is None


def test_a_seat_arranges_once_and_either_seat_may_arrange_first():
    state, chance = started()
    _, state = sb.step(state, {"seat": 1, "type": "arrange", "formation": list("23456789")}, chance)
    assert sb.to_act(state) == (0,) and state.remaining(0) == [] and state.remaining(1) == list(range(8))
    assert refusal(state, chance, {"seat": 1, "type": "arrange", "formation": list("23456789")}) == (
        "SB-1.3", "your formation is set for the whole game: you arranged already")
    assert refusal(state, chance, {"seat": 1, "type": "strike", "position": 0}) == (
        "SB-2.1", "no strike before both formations are set")
    events, state = sb.step(state, {"seat": 0, "type": "arrange", "formation": list("23456789")}, chance)
    assert [e["type"] for e in events] == ["arranged", "drew"] and events[1]["seat"] == state.starter


@pytest.mark.parametrize("move, rule", [
    ({"seat": 1, "type": "strike", "position": 0}, ("SB-2.1", "not your turn: seat 0 is to strike")),
    ({"seat": 0, "type": "strike", "position": 8}, ("SB-2.1", "a position is one of 0..7")),
    ({"seat": 0, "type": "strike", "position": -1}, ("SB-2.1", "a position is one of 0..7")),
    ({"seat": 0, "type": "strike", "position": 7}, ("SB-2.1", "position 7 was removed already: name a remaining one")),
])
def test_a_strike_is_by_the_seat_to_move_on_a_remaining_position(move, rule):
    """SB-2.1, SB-4.2: the seat to move, then a position in 0..7, then one not yet removed."""
    chance = chance_with_pile("5D 6D")
    state, _ = started(SETUP, chance)
    for seat in (0, 1):
        _, state = sb.step(state, {"seat": seat, "type": "arrange", "formation": list("98765432")}, chance)
    _, state = sb.step(state, {"seat": 0, "type": "strike", "position": 7}, chance)  # 5 beats the 2
    assert refusal(state, chance, move) == rule
    assert [m["position"] for m in sb.legal_moves(state)] == [0, 1, 2, 3, 4, 5, 6]
    assert {m["seat"] for m in sb.legal_moves(state)} == {0} and {m["type"] for m in sb.legal_moves(state)} == {"strike"}


def test_an_ace_on_a_revealed_position_shows_nothing_new_and_a_held_strike_reveals_nothing():
    """SB-2.3: an Ace on an already revealed position is legal and shows nothing new."""
    chance = chance_with_pile("AD 3H AH")
    state, _ = started(SETUP, chance)
    for seat in (0, 1):
        _, state = sb.step(state, {"seat": seat, "type": "arrange", "formation": list("23456789")}, chance)
    _, state = sb.step(state, {"seat": 0, "type": "strike", "position": 5}, chance)
    _, state = sb.step(state, {"seat": 1, "type": "strike", "position": 7}, chance)  # a 3 holds against the 9
    assert state.revealed == ((), (5,)) and state.to_act == 0
    events, state = sb.step(state, {"seat": 0, "type": "strike", "position": 5}, chance)
    assert events[0]["result"] == "revealed" and sb.disclosed(state, events[0]) == ({}, cards("7S"))
    assert state.revealed == ((), (5,)) and state.removed == ((), ()) and state.to_act == 1


def test_the_legal_moves_before_the_strikes_are_every_ordering_for_each_seat_still_to_arrange():
    state, chance = started()
    moves = sb.legal_moves(state)
    assert next(moves) == {"seat": 0, "type": "arrange", "formation": list("23456789")}
    assert next(moves) == {"seat": 0, "type": "arrange", "formation": list("23456798")}
    _, state = sb.step(state, {"seat": 0, "type": "arrange", "formation": list("23456789")}, chance)
    listed = list(sb.legal_moves(state))
    assert len(listed) == 40320 and {m["seat"] for m in listed} == {1}
    assert listed[-1] == {"seat": 1, "type": "arrange", "formation": list("98765432")}


def test_a_say_is_recorded_and_changes_nothing_else():
    state, chance = started()
    events, after = sb.step(state, {"seat": 1, "type": "say", "text": "hello"}, chance)
    assert events == [{"type": "said", "seat": 1, "text": "hello"}] and after == state


def test_evolve_leaves_its_input_unchanged_and_refuses_an_unknown_event():
    state, _ = started()
    before = sb.dump_state(state)
    sb.evolve(state, {"type": "arranged", "seat": 0, "formation": [2, 3, 4, 5, 6, 7, 8, 9], "commitment": ["c"] * 8})
    assert sb.dump_state(state) == before
    with pytest.raises(ValueError, match="unknown Small Battle event type 'shuffled'"):
        sb.evolve(state, {"type": "shuffled"})
    assert state != before and not (state == None)  # noqa: E711 -- a State equals only a State


# ---------------------------------------------------------------- set-up, the first player, records

def test_the_set_up_is_two_individuals_with_no_options():
    """SB-1.1, SB-4.3: two players, no teams, no options; dealer and starter are seats 0 or 1 when given."""
    setup = sb.configure(None, [{"name": "Ann"}, {"name": "Bob"}], 1, None)
    assert (setup.names, setup.dealer, setup.starter, setup.n) == (("Ann", "Bob"), 1, None, 2)
    assert setup.options() == {} and setup.players() == [{"name": "Ann"}, {"name": "Bob"}]
    assert sb.configure({}, [{"name": "A"}, {"name": "B"}], 0, 1).starter == 1


@pytest.mark.parametrize("options, players, dealer, starter, field, reason", [
    ([], [{"name": "A"}, {"name": "B"}], None, None, "options", "must be an object"),
    ({"b": 1, "a": 2}, [{"name": "A"}, {"name": "B"}], None, None, "options", "Small Battle has no options, got a, b"),
    ({}, [{"name": "A"}], None, None, "players", "Small Battle needs a list of exactly 2 players (SB-1.1)"),
    ({}, [{"name": "A"}] * 3, None, None, "players", "Small Battle needs a list of exactly 2 players (SB-1.1)"),
    ({}, ({"name": "A"}, {"name": "B"}), None, None, "players", "Small Battle needs a list of exactly 2 players (SB-1.1)"),
    ({}, [{"name": "A"}, {"name": "B", "team": "x"}], None, None, "players[1].team",
     "Small Battle is played by two individuals: no teams (SB-4.3)"),
    ({}, [{"name": "A"}, {"name": "B"}], 2, None, "dealer", "must be a seat number, 0 or 1"),
    ({}, [{"name": "A"}, {"name": "B"}], -1, None, "dealer", "must be a seat number, 0 or 1"),
    ({}, [{"name": "A"}, {"name": "B"}], True, None, "dealer", "must be a seat number, 0 or 1"),
    ({}, [{"name": "A"}, {"name": "B"}], None, "0", "starter", "must be a seat number, 0 or 1"),
    ({}, [{"name": "A"}, {"name": "B"}], None, 2, "starter", "must be a seat number, 0 or 1"),
    ({}, [{"name": "A"}, {"name": "B"}], None, False, "starter", "must be a seat number, 0 or 1"),
])
def test_a_set_up_outside_the_rules_is_refused_naming_its_field(options, players, dealer, starter, field, reason):
    with pytest.raises(InvalidSetup) as e:
        sb.configure(options, players, dealer, starter)
    assert (e.value.field, e.value.reason) == (field, reason)


@pytest.mark.parametrize("pack, first", [
    ("2C 3D", 1), ("3C 2D", 0), ("AC KD", 0), ("KC AD", 1), ("TC JD", 1), ("7C 7D AS 2H", 0), ("7C 7D 2S AH", 1),
    ("AC AD AS AH 2C 2D 3C 9D", 1),
])
def test_the_high_card_goes_first_ace_highest_and_ties_draw_again_as_data(pack, first):
    """SB-1.2: seats 0 and 1 take cards 0 and 1, then 2 and 3 while the ranks tie; Ace highest."""
    order = cards(pack)
    order += [c for c in range(52) if c not in order]
    assert sb.codec.first_player(order) == first
    assert [sb.codec.high(c) for c in cards("AC 2D 9H TS JC QD KH")] == [14, 2, 9, 10, 11, 12, 13]


TIED = [r + 13 * s for r in range(13) for s in range(4)]  # every pair of the draw is two cards of one rank


def test_a_draw_that_ties_through_all_pairs_is_refused_unless_the_starter_is_given():
    """SB-4.3: a stacked deck whose high-card draw ties all the way is invalid; with `starter` no draw is made."""
    assert sb.codec.first_player(TIED) is None
    no_starter = sb.configure({}, [{"name": "A"}, {"name": "B"}])
    with pytest.raises(InvalidSetup) as e:
        sb.check_deck(no_starter, TIED)
    assert (e.value.field, e.value.reason) == ("deck", "the high-card draw ties through all 26 pairs (SB-4.3)")
    sb.check_deck(SETUP, TIED)
    sb.check_deck(no_starter, list(range(52)))
    with pytest.raises(InvalidSetup) as e:
        sb.start(no_starter, Chance(SEED, {"first": TIED}))
    assert (e.value.field, e.value.reason) == ("outcomes", "the high-card draw ties through all 26 pairs (SB-4.3)")


@pytest.mark.parametrize("deck, reason", [
    (list(range(51)), "must hold each of the 52 cards exactly once (got 51 cards, 51 distinct)"),
    (list(range(51)) + [0], "must hold each of the 52 cards exactly once (got 52 cards, 51 distinct)"),
    (list(range(52)) + [0], "must hold each of the 52 cards exactly once (got 53 cards, 52 distinct)"),
])
def test_a_stacked_deck_holds_each_card_once(deck, reason):
    with pytest.raises(InvalidSetup) as e:
        sb.check_deck(SETUP, deck)
    assert (e.value.field, e.value.reason) == ("deck", reason)
    assert sb.pack() == list(range(52)) and sb.pack(SETUP) == list(range(52))


def test_the_start_draws_the_first_player_and_shuffles_the_pile_from_the_seed():
    """SB-1.2, SB-1.4: labels `first` and `pile`; with `starter` given there is no draw."""
    from domain.randomness import shuffle

    no_starter = sb.configure({}, [{"name": "A"}, {"name": "B"}])
    first = shuffle(SEED, "first", list(range(52)))
    pile = shuffle(SEED, "pile", list(sb.codec.PILE))
    assert sb.start(no_starter, Chance(SEED)) == [
        {"type": "started", "starter": sb.codec.first_player(first), "first": first, "pile": pile}]
    assert sb.start(SETUP, Chance(SEED)) == [{"type": "started", "starter": 0, "first": None, "pile": pile}]
    assert sb.chance_of(sb.start(no_starter, Chance(SEED))[0]) == {"pile": pile, "first": first}
    assert sb.chance_of(sb.start(SETUP, Chance(SEED))[0]) == {"pile": pile}
    assert sb.chance_of({"type": "drew", "seat": 0, "card": 13}) == {}
    assert sorted(sb.codec.PILE) == sorted(cards("AD 3D 4D 5D 6D 7D 8D 9D TD AH 3H 4H 5H 6H 7H 8H 9H TH"))


@pytest.mark.parametrize("outcomes", [{"pile": list(range(18))}, {"first": list(range(51))}])
def test_a_fixed_outcome_that_is_not_the_cards_shuffled_is_an_invalid_set_up(outcomes):
    no_starter = sb.configure({}, [{"name": "A"}, {"name": "B"}])
    with pytest.raises(InvalidSetup) as e:
        sb.start(no_starter, Chance(SEED, outcomes))
    assert e.value.field == "outcomes" and "is not exactly the" in e.value.reason


@pytest.mark.parametrize("raw, field, reason", [
    ({"type": "arrange"}, "", "arrange needs a formation: a list of rank strings"),
    ({"type": "arrange", "formation": "23456789"}, "", "arrange needs a formation: a list of rank strings"),
    ({"type": "arrange", "formation": [2, 3, 4, 5, 6, 7, 8, 9]}, "", "arrange needs a formation: a list of rank strings"),
    ({"type": "arrange", "formation": ["2"] * 65}, "formation", "a formation is eight short rank strings"),
    ({"type": "arrange", "formation": ["123456789"]}, "formation", "a formation is eight short rank strings"),
    ({"type": "strike"}, "position", "a strike names a position: an integer (SB-4.3)"),
    ({"type": "strike", "position": "3"}, "position", "a strike names a position: an integer (SB-4.3)"),
    ({"type": "strike", "position": True}, "position", "a strike names a position: an integer (SB-4.3)"),
    ({"type": "strike", "position": 10**6 + 1}, "position", "a position is a small integer"),
    ({"type": "strike", "position": -10**6 - 1}, "position", "a position is a small integer"),
    ({"type": "say", "text": 3}, "text", "a say needs a text string"),
    ({"type": "say"}, "text", "a say needs a text string"),
])
def test_a_record_move_of_the_wrong_shape_is_malformed_not_illegal(raw, field, reason):
    """SB-4.3: a formation that is not a list of strings, a position that is not an integer."""
    with pytest.raises(MalformedMove) as e:
        sb.parse_move({"seat": 0, **raw}, 2)
    assert (e.value.field, e.value.reason) == (field, reason)


def test_a_record_move_of_the_right_shape_is_read_as_it_is():
    formation = ["2"] * 64
    move = sb.parse_move({"seat": 1, "type": "arrange", "formation": formation}, 2)
    assert move == {"seat": 1, "type": "arrange", "formation": formation} and move["formation"] is not formation
    assert sb.parse_move({"seat": 0, "type": "arrange", "formation": ["12345678"]}, 2)["formation"] == ["12345678"]
    for position in (10**6, -10**6, 9):
        assert sb.parse_move({"seat": 0, "type": "strike", "position": position}, 2) == {
            "seat": 0, "type": "strike", "position": position}
    assert sb.parse_move({"seat": 0, "type": "say", "text": ""}, 2) == {"seat": 0, "type": "say", "text": ""}
    recorded = sb.format_move({"seat": 0, "type": "arrange", "formation": formation})
    assert recorded == {"seat": 0, "type": "arrange", "formation": formation} and recorded["formation"] is not formation


def test_every_game_of_a_match_draws_its_own_first_player():
    """SB-1.2: the next game's starter is the next game's own high-card draw; the dealer means nothing."""
    _, state, _ = play_the_game()
    assert sb.next_deal(SETUP, state) == NextDeal(
        None, None, "SB-1.2", "the first player is decided by the game's own high-card draw")


def test_an_ace_of_the_second_seat_shows_the_first_seats_card_and_a_pending_draw_is_in_the_final_object():
    """SB-2.3 for seat 1 (its Ace shows a club of seat 0's formation); the verdict's `drawn` while a strike is due."""
    chance = chance_with_pile("3H AH 4D")
    state, _ = started(SETUP, chance)
    for seat in (0, 1):
        _, state = sb.step(state, {"seat": seat, "type": "arrange", "formation": list("23456789")}, chance)
    assert sb.final(state)["drawn"] == "3H"
    _, state = sb.step(state, {"seat": 0, "type": "strike", "position": 7}, chance)  # 3 holds against the 9
    events, state = sb.step(state, {"seat": 1, "type": "strike", "position": 4}, chance)
    assert events[0]["result"] == "revealed" and sb.disclosed(state, events[0]) == ({}, cards("6C"))
    assert sb.final(state)["drawn"] == "4D" and sb.final(state)["revealed"] == {"0": [4], "1": []}


def test_a_table_before_its_start_has_no_starter_and_a_loaded_state_keeps_its_dealer():
    state = sb.initial_state(sb.configure({}, [{"name": "A"}, {"name": "B"}], 1, None))
    assert sb.dump_state(state)["starter"] is None and sb.dump_state(state)["to_act"] is None
    assert state.starter is None and state.to_act is None
    loaded = sb.load_state(sb.dump_state(state))
    assert loaded.setup.dealer == 1 and loaded == state
