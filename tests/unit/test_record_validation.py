"""Contract §2 "Invalid versus illegal": what `domain.records.parse` rejects as an invalid record, and what is
replayed and stopped as an illegal move citing the clause ER-3.12 names."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from domain.cards import cards_of, format_cards
from domain.records import InvalidRecord, parse, replay
from tests.support import record, verdict

RECORDS = Path(__file__).resolve().parent.parent / "records" / "el-royale"

# Three players, revised, dealer 0, seat 0 attacks first and seat 1 defends.
HANDS3 = [["7C", "8C", "9C", "TC"], ["7D", "8D", "9D", "TD"], ["7H", "8H", "9H", "TH"]]
# After seat 0 attacks with 7C: join window offers seat 2 then seat 0; then seat 1 defends.
ATTACK_AND_JOIN = [(0, "attack", ["7C"]), (2, "pass"), (0, "pass")]


def base() -> dict:
    """A valid three-player stacked-deck record that exercises several move types."""
    return record(HANDS3, ATTACK_AND_JOIN + [(1, "beat", ["7D"]), {"seat": 2, "type": "say", "text": "nice"}])


def sample(name: str) -> dict:
    """A sample record document from tests/records/el-royale."""
    return json.loads((RECORDS / f"{name}.json").read_text())


def invalid_message(doc) -> str:
    """The message of the InvalidRecord that parse raises for doc (fails if it raises nothing)."""
    with pytest.raises(InvalidRecord) as info:
        parse(doc)
    return str(info.value)


def illegal(doc: dict) -> dict:
    """The `illegal` part of a record's verdict, checked to be present."""
    v = verdict(doc)
    assert v["status"] == "illegal", v
    return v["illegal"]


def with_(mutate):
    """A fresh base record changed by mutate(doc)."""
    doc = base()
    mutate(doc)
    return doc


# ---------------------------------------------------------------- the base record is valid


def test_base_record_is_valid_and_replays_legally():
    """The record the invalid cases are derived from parses and replays with no illegal move."""
    v = verdict(base())
    assert v["status"] == "in_progress"
    assert v["illegal"] is None
    assert v["moves_applied"] == 5


# ---------------------------------------------------------------- invalid: the document


@pytest.mark.parametrize("doc", [[], "arbiter.record/1", None, 42, [{"format": "arbiter.record/1"}]])
def test_document_that_is_not_a_json_object_is_invalid(doc):
    """A record must be a JSON object (a list, string, number or null is rejected)."""
    assert "object" in invalid_message(doc)


@pytest.mark.parametrize("fmt", ["arbiter.record/2", "arbiter.record", "", None, 1])
def test_wrong_format_is_invalid_naming_format(fmt):
    """`format` must be exactly arbiter.record/1."""
    msg = invalid_message(with_(lambda d: d.__setitem__("format", fmt)))
    assert msg.startswith("format")


def test_missing_format_is_invalid_naming_format():
    """A record without `format` is invalid."""
    assert invalid_message(with_(lambda d: d.pop("format"))).startswith("format")


@pytest.mark.parametrize("game", ["chess", "El Royale", "", None, 7, ["el-royale"]])
def test_unknown_game_is_invalid_naming_game(game):
    """A `game` that is not one of the contract's game ids is invalid."""
    msg = invalid_message(with_(lambda d: d.__setitem__("game", game)))
    assert msg.startswith("game")
    assert "unknown game" in msg


def test_a_game_taken_out_of_the_registry_is_invalid_naming_it_and_the_registered_ones(monkeypatch):
    """The registry is the one list of games: a game id it does not hold (here four-virtues, taken out) is invalid,
    naming it and the games that are registered."""
    from domain import games

    monkeypatch.delitem(games.SPECS, "four-virtues")
    doc = with_(lambda d: d.update(game="four-virtues", options={}))
    msg = invalid_message(doc)
    assert msg.startswith("game")
    assert "unknown game 'four-virtues'" in msg
    assert "el-royale, batallion, small-battle" in msg


# ---------------------------------------------------------------- invalid: options


@pytest.mark.parametrize("edition", ["deluxe", "Revised", "", None, 1, ["revised"]])
def test_bad_edition_is_invalid_naming_options_edition(edition):
    """options.edition is 'revised' or 'classic' only."""
    msg = invalid_message(with_(lambda d: d["options"].__setitem__("edition", edition)))
    assert "options.edition" in msg


def test_options_not_an_object_is_invalid():
    """`options` must be an object."""
    assert invalid_message(with_(lambda d: d.__setitem__("options", "revised"))).startswith("options")


def test_unknown_option_is_invalid_naming_it():
    """An option El Royale does not know is invalid, named in the message."""
    msg = invalid_message(with_(lambda d: d["options"].__setitem__("jokers", True)))
    assert msg.startswith("options") and "jokers" in msg


@pytest.mark.parametrize("limit", [0, -3, "10", True, 2.5, [10]])
def test_bad_battle_limit_is_invalid_naming_options_battle_limit(limit):
    """options.battle_limit must be a positive integer (ER-4.4 R)."""
    msg = invalid_message(with_(lambda d: d["options"].__setitem__("battle_limit", limit)))
    assert "options.battle_limit" in msg


def test_positive_battle_limit_is_valid():
    """A positive integer battle_limit is accepted."""
    assert parse(with_(lambda d: d["options"].__setitem__("battle_limit", 1))).setup.battle_limit == 1


# ---------------------------------------------------------------- invalid: players and teams (ER-1.1, ER-1.2 R)


def players(teams: list) -> list[dict]:
    """A players list with one team (or None) per seat."""
    return [{"name": f"P{i}"} if t is None else {"name": f"P{i}", "team": t} for i, t in enumerate(teams)]


@pytest.mark.parametrize("count", [0, 1, 9, 12])
def test_player_count_outside_2_to_8_is_invalid(count):
    """El Royale seats 2 to 8 players (ER-1.1): other counts are invalid, naming players."""
    msg = invalid_message(with_(lambda d: d.update(players=players([None] * count), moves=[])))
    assert msg.startswith("players")


@pytest.mark.parametrize("count", [2, 8])
def test_player_counts_2_and_8_are_valid(count):
    """The bounds of ER-1.1 are allowed."""
    doc = with_(lambda d: d.update(players=players([None] * count), moves=[], dealer=0, starter=0))
    assert parse(doc).setup.n == count


@pytest.mark.parametrize("value", [None, "North", {"name": "N"}])
def test_players_not_a_list_is_invalid(value):
    """`players` must be a list."""
    assert invalid_message(with_(lambda d: d.__setitem__("players", value))).startswith("players")


@pytest.mark.parametrize("teams, why", [
    (["A", "B", "A", None], "some players with a team and some without"),
    ([None, "B", "A", "B"], "some players with a team and some without"),
    (["A", "B", "A", "B", "C", "D"], "teams of unequal size (2, 2, 1, 1)"),
    (["A", "B", "A", "B", "A", "C"], "teams of unequal size (3, 2, 1) with no partner side by side"),
    (["A", "A", "B", "B"], "partners sitting side by side"),
    (["A", "B", "B", "A", "B", "A"], "partners side by side in the middle"),
    (["A", "B", "C", "B", "C", "A"], "partners side by side across the wrap from the last seat to seat 0"),
    (["A", "A"], "a single team"),
    (["A", "A", "A", "A"], "a single team"),
    (["A", "B", "C"], "teams of one player each"),
])
def test_team_layout_forbidden_by_er_1_2_is_invalid(teams, why):
    """ER-1.2 R: all or none name a team; at least two teams of one size >= 2; no partner on one's left."""
    msg = invalid_message(with_(lambda d: d.update(players=players(teams), moves=[], dealer=0, starter=0)))
    assert msg.startswith("players"), why
    assert "ER-1.2" in msg, why


@pytest.mark.parametrize("teams", [["A", "B", "A", "B"], ["A", "B", "C", "A", "B", "C"], ["N", "E", "N", "E", "N", "E"]])
def test_interleaved_equal_teams_are_valid(teams):
    """Interleaved seating of equal teams (2v2, 2v2v2, 3v3) is allowed."""
    doc = with_(lambda d: d.update(players=players(teams), moves=[], dealer=0, starter=0))
    assert parse(doc).setup.team_of is not None


@pytest.mark.parametrize("entry, field", [("North", "players[1]"), ({"name": ""}, "players[1].name"),
                                          ({"name": 5}, "players[1].name"), ({"name": "E", "team": 3}, "players[1].team")])
def test_malformed_player_entry_is_invalid_naming_it(entry, field):
    """A player entry must be an object with a non-empty name and an optional team string."""
    msg = invalid_message(with_(lambda d: d["players"].__setitem__(1, entry)))
    assert msg.startswith(field)


# ---------------------------------------------------------------- invalid: the deck


def test_deck_of_51_cards_is_invalid_naming_deck():
    """A stacked deck must hold all 52 cards: 51 is invalid."""
    msg = invalid_message(with_(lambda d: d["deck"].pop()))
    assert msg.startswith("deck") and "51" in msg


def test_deck_with_a_duplicate_card_is_invalid_naming_deck():
    """A stacked deck holding one card twice (and so missing another) is invalid."""
    def dup(d):
        d["deck"][-1] = d["deck"][0]
    assert invalid_message(with_(dup)).startswith("deck")


def test_deck_of_53_cards_with_a_repeat_is_invalid():
    """A 53-card deck (one card added twice) is invalid."""
    assert invalid_message(with_(lambda d: d["deck"].append(d["deck"][5]))).startswith("deck")


def test_deck_repeating_a_card_in_other_notation_is_invalid():
    """`10d` and `TD` are the same card, so a deck naming both (and not KS) holds TD twice."""
    doc = with_(lambda d: d["deck"].__setitem__(d["deck"].index("KS"), "10d"))
    assert "TD" in doc["deck"] and "10d" in doc["deck"]
    assert invalid_message(doc).startswith("deck")


def test_deck_not_a_list_is_invalid():
    """`deck` must be a list of card strings."""
    assert invalid_message(with_(lambda d: d.__setitem__("deck", "AC 2C 3C"))).startswith("deck")


def test_bad_card_string_in_deck_is_invalid_naming_index_and_string():
    """A string in `deck` that is not a card is invalid; the message names deck[i] and the string."""
    msg = invalid_message(with_(lambda d: d["deck"].__setitem__(5, "ZZ")))
    assert msg.startswith("deck[5]") and "'ZZ'" in msg


def test_deck_accepts_ten_and_lower_case_notation():
    """`10D` and lower case are accepted in a deck (contract §1)."""
    def relabel(d):
        d["deck"] = ["10" + c[1].lower() if c[0] == "T" else c.lower() for c in d["deck"]]
    assert parse(with_(relabel)).stacked


# ---------------------------------------------------------------- invalid: card strings in moves and outcomes


@pytest.mark.parametrize("bad", ["ZZ", "1C", "", None, 7])
def test_bad_card_string_in_a_move_is_invalid_naming_the_move(bad):
    """A move card that is not a card string is invalid (not illegal), naming moves[i].cards[j]."""
    msg = invalid_message(with_(lambda d: d["moves"][3].__setitem__("cards", ["7D", bad])))
    assert msg.startswith("moves[3].cards[1]") and repr(bad) in msg


def test_bad_card_string_in_a_take_is_invalid():
    """The optional cards of a take are card strings too."""
    doc = with_(lambda d: d["moves"].append({"seat": 0, "type": "take", "cards": ["QQ"]}))
    assert invalid_message(doc).startswith("moves[5].cards[0]")


def test_bad_card_string_in_outcomes_is_invalid_naming_the_label():
    """A card list in `outcomes` must hold card strings; the message names outcomes.LABEL[i]."""
    msg = invalid_message(with_(lambda d: d.__setitem__("outcomes", {"reshuffle:1": ["AC", "XX"]})))
    assert msg.startswith("outcomes.reshuffle:1[1]") and "'XX'" in msg


@pytest.mark.parametrize("value", ["AC", None, True, {"a": 1}, 1.5])
def test_outcome_that_is_neither_cards_nor_integer_is_invalid(value):
    """An outcome is a card list or an integer."""
    assert invalid_message(with_(lambda d: d.__setitem__("outcomes", {"blind:1": value}))).startswith("outcomes.blind:1")


def test_outcomes_not_an_object_is_invalid():
    """`outcomes` must be an object."""
    assert invalid_message(with_(lambda d: d.__setitem__("outcomes", [1, 2]))).startswith("outcomes")


def test_deck_and_outcomes_deal_both_given_and_different_is_invalid():
    """`deck` is shorthand for outcomes.deal: both given and different is invalid, naming both."""
    def both(d):
        d["outcomes"] = {"deal": list(reversed(d["deck"]))}
    msg = invalid_message(with_(both))
    assert "deck" in msg and "outcomes.deal" in msg


def test_deck_and_outcomes_deal_both_given_and_equal_is_valid():
    """`deck` and an identical outcomes.deal are consistent."""
    assert parse(with_(lambda d: d.__setitem__("outcomes", {"deal": list(d["deck"])}))).stacked


def test_unknown_outcome_labels_are_ignored():
    """Unknown outcome labels do not invalidate the record."""
    assert verdict(with_(lambda d: d.__setitem__("outcomes", {"nonsense:7": 3})))["illegal"] is None


# ---------------------------------------------------------------- invalid: outcomes used while setting up


def test_first_deal_outcome_that_is_not_the_pack_is_invalid():
    """An outcomes.deal that is not the 52 cards makes the record invalid, not a move illegal."""
    doc = with_(lambda d: d.update(outcomes={"deal": d.pop("deck")[:-1]}))
    with pytest.raises(InvalidRecord) as info:
        replay(parse(doc))
    assert "outcomes" in str(info.value) and "deal" in str(info.value)


def test_dealer_outcome_out_of_range_is_invalid():
    """A `dealer` outcome out of range (used while setting up) makes the record invalid."""
    def bad(d):
        d.pop("dealer")
        d["outcomes"] = {"dealer": 3}
    with pytest.raises(InvalidRecord) as info:
        replay(parse(with_(bad)))
    assert "dealer" in str(info.value)


def test_integer_outcome_for_the_deal_shuffle_is_invalid():
    """outcomes.deal must be the shuffled pack: an integer there makes the record invalid."""
    doc = with_(lambda d: d.update(outcomes={"deal": 3}))
    doc.pop("deck")
    with pytest.raises(InvalidRecord):
        replay(parse(doc))


def test_wrong_reshuffle_outcome_makes_the_triggering_move_illegal_er_2_3():
    """A reshuffle outcome that is not exactly the discard pile makes the move that caused the draw illegal (ER-2.3)."""
    doc = sample("random-01-3p-classic")
    doc["outcomes"] = {"reshuffle:1": ["AC"]}
    v = verdict(doc)
    assert v["status"] == "illegal"
    assert v["illegal"]["rule"] == "ER-2.3"


def test_integer_reshuffle_outcome_makes_the_triggering_move_illegal_er_2_3():
    """A reshuffle outcome must be a card list: an integer makes the triggering move illegal (ER-2.3)."""
    doc = sample("random-01-3p-classic")
    doc["outcomes"] = {"reshuffle:1": 5}
    v = verdict(doc)
    assert v["status"] == "illegal"
    assert v["illegal"]["rule"] == "ER-2.3"


# ---------------------------------------------------------------- invalid: seed


@pytest.mark.parametrize("seed", ["xyz1", "abc", "0x00ff", "", 1234, ["00ff"], True])
def test_seed_that_is_not_a_hex_string_is_invalid_naming_seed(seed):
    """`seed` must be a non-empty hex string (an even number of hex digits)."""
    assert invalid_message(with_(lambda d: d.__setitem__("seed", seed))).startswith("seed")


def test_absent_seed_is_drawn_by_the_importer():
    """Without `seed` the importer draws one (a non-empty hex string)."""
    rec = parse(with_(lambda d: d.pop("seed")))
    assert not rec.seed_given
    assert bytes.fromhex(rec.seed)


@pytest.mark.parametrize("seed", [" ", "ab cd", "00ff\n"])
def test_seed_with_whitespace_is_invalid(seed):
    """A seed holding whitespace is not a hex string (and ' ' would be an empty seed)."""
    invalid_message(with_(lambda d: d.__setitem__("seed", seed)))


# ---------------------------------------------------------------- invalid: seats and dealer / starter


@pytest.mark.parametrize("seat", [3, 99, -1, "0", True, False, 1.0, None])
def test_move_seat_that_is_not_an_integer_in_range_is_invalid(seat):
    """A move's seat must be an int in 0..n-1 (not a bool, string, float or missing)."""
    msg = invalid_message(with_(lambda d: d["moves"][1].__setitem__("seat", seat)))
    assert msg.startswith("moves[1].seat") and "0 to 2" in msg


def test_move_without_seat_is_invalid():
    """A move needs a seat."""
    assert invalid_message(with_(lambda d: d["moves"][1].pop("seat"))).startswith("moves[1].seat")


@pytest.mark.parametrize("field", ["dealer", "starter"])
@pytest.mark.parametrize("value", [3, -1, "0", True, 0.0])
def test_dealer_or_starter_out_of_range_is_invalid(field, value):
    """`dealer` and `starter` must be seat numbers of the table."""
    assert invalid_message(with_(lambda d: d.__setitem__(field, value))).startswith(field)


# ---------------------------------------------------------------- invalid: move shapes


@pytest.mark.parametrize("kind", ["fold", "Attack", "draw", "", None, 3])
def test_unknown_move_type_is_invalid_naming_it(kind):
    """A move type El Royale does not have is invalid (not illegal)."""
    msg = invalid_message(with_(lambda d: d["moves"][0].__setitem__("type", kind)))
    assert msg.startswith("moves[0].type") and repr(kind) in msg


@pytest.mark.parametrize("kind", [["attack"], {"attack": 1}])
def test_unhashable_move_type_is_invalid(kind):
    """A move `type` that is a JSON array or object is an unknown move type (invalid record)."""
    msg = invalid_message(with_(lambda d: d["moves"][0].__setitem__("type", kind)))
    assert msg.startswith("moves[0].type")


@pytest.mark.parametrize("kind", ["attack", "throw_in", "beat", "show"])
def test_card_move_without_cards_is_invalid(kind):
    """attack, throw_in, beat and show need a `cards` list: without one the record is invalid."""
    msg = invalid_message(with_(lambda d: d["moves"].append({"seat": 2, "type": kind})))
    assert msg.startswith("moves[5].cards")


@pytest.mark.parametrize("cards", ["7C", None, {"0": "7C"}, 7])
def test_cards_that_are_not_a_list_are_invalid(cards):
    """`cards` must be a list of card strings."""
    assert invalid_message(with_(lambda d: d["moves"][0].__setitem__("cards", cards))).startswith("moves[0].cards")


@pytest.mark.parametrize("text", [None, 5, ["hi"]])
def test_say_without_text_string_is_invalid(text):
    """A say needs a `text` string."""
    def bad(d):
        if text is None:
            d["moves"][4].pop("text")
        else:
            d["moves"][4]["text"] = text
    assert invalid_message(with_(bad)).startswith("moves[4].text")


@pytest.mark.parametrize("moves", [{"seat": 0, "type": "pass"}, "attack 7C", 3])
def test_moves_not_a_list_is_invalid(moves):
    """`moves` must be a list."""
    assert invalid_message(with_(lambda d: d.__setitem__("moves", moves))).startswith("moves")


@pytest.mark.parametrize("move", ["attack", ["0", "attack"], None])
def test_move_that_is_not_an_object_is_invalid(move):
    """Each move must be an object."""
    assert invalid_message(with_(lambda d: d["moves"].__setitem__(2, move))).startswith("moves[2]")


def test_invalid_move_late_in_the_record_is_found_before_replay():
    """The whole record is validated first: a malformed last move makes it invalid even after an illegal one."""
    doc = record(HANDS3, [(1, "attack", ["7D"]), {"seat": 0, "type": "fold"}])
    assert invalid_message(doc).startswith("moves[1].type")


# ---------------------------------------------------------------- illegal, not invalid: empty and repeated cards


@pytest.mark.parametrize("moves, clause", [
    ([(0, "attack", [])], "ER-3.1"),
    ([(0, "attack", ["7C"]), (2, "throw_in", [])], "ER-3.7"),
    (ATTACK_AND_JOIN + [(1, "beat", [])], "ER-3.4"),
    ([(1, "show", [])], "ER-7.2"),
])
def test_empty_cards_list_is_an_illegal_move_citing_its_plays_clause(moves, clause):
    """An empty `cards` list parses, and is illegal citing the play's clause (ER-3.12)."""
    doc = record(HANDS3, moves)
    parse(doc)  # valid
    il = illegal(doc)
    assert il["move_index"] == len(moves) - 1
    assert il["rule"] == clause


@pytest.mark.parametrize("moves, clause", [
    ([(0, "attack", ["7C", "7C"])], "ER-3.1"),
    ([(0, "attack", ["7C"]), (2, "throw_in", ["7H", "7H"])], "ER-3.7"),
    (ATTACK_AND_JOIN + [(1, "beat", ["7D", "7D"])], "ER-3.4"),
    ([(1, "show", ["9D", "9D"])], "ER-7.2"),
])
def test_card_named_twice_in_one_move_is_illegal_citing_its_plays_clause(moves, clause):
    """A card named twice in one move parses, and is illegal citing the play's clause (ER-3.12)."""
    doc = record(HANDS3, moves)
    parse(doc)  # valid
    il = illegal(doc)
    assert il["move_index"] == len(moves) - 1
    assert il["rule"] == clause
    assert "twice" in il["reason"]


def test_card_named_twice_in_other_notation_is_illegal():
    """`7c` and `7C` are one card: naming both in an attack is a card named twice (ER-3.1)."""
    il = illegal(record(HANDS3, [(0, "attack", ["7C", "7c"])]))
    assert il["rule"] == "ER-3.1" and "twice" in il["reason"]


def _elimination_pick() -> tuple[dict, list[str]]:
    """A sample revised record cut just before its first ER-5.2 take, and the laid-out cards then."""
    doc = sample("random-04-5p-revised")
    first = next(i for i, m in enumerate(doc["moves"]) if m["type"] == "take")
    doc["moves"] = doc["moves"][:first]
    state = replay(parse(doc)).state
    assert state.phase == "take"
    return doc, format_cards(cards_of(state.laid_out))


def test_take_naming_a_card_twice_is_illegal_er_5_2():
    """A take naming one laid-out card twice is illegal citing ER-5.2."""
    doc, laid = _elimination_pick()
    seat = replay(parse(doc)).state.to_act
    doc["moves"].append({"seat": seat, "type": "take", "cards": [laid[0], laid[0]]})
    il = illegal(doc)
    assert il["rule"] == "ER-5.2" and "twice" in il["reason"]


def test_take_of_nothing_is_legal():
    """ER-5.2: a take may name no cards (an empty list or no `cards` at all)."""
    doc, _ = _elimination_pick()
    seat = replay(parse(doc)).state.to_act
    for move in ({"seat": seat, "type": "take", "cards": []}, {"seat": seat, "type": "take"}):
        v = verdict(dict(doc, moves=doc["moves"] + [move]))
        assert v["illegal"] is None, move


def test_take_of_a_card_not_laid_out_is_illegal_er_5_2():
    """A take may only name the eliminated player's laid-out cards (ER-5.2)."""
    doc, laid = _elimination_pick()
    seat = replay(parse(doc)).state.to_act
    other = next(c for c in ("2H", "3H", "QS", "JC", "TD") if c not in laid)
    doc["moves"].append({"seat": seat, "type": "take", "cards": [other]})
    assert illegal(doc)["rule"] == "ER-5.2"


# ---------------------------------------------------------------- illegal: turn order, game over, say and show


def test_move_out_of_turn_is_illegal_er_3_0():
    """Only the seat to act may move: the defender attacking first is illegal (ER-3.0)."""
    il = illegal(record(HANDS3, [(1, "attack", ["7D"])]))
    assert il == {"move_index": 0, "rule": "ER-3.0", "reason": il["reason"]}
    assert "seat 0" in il["reason"]


def test_pass_out_of_turn_is_illegal_er_3_0():
    """In the join window the offers go clockwise from the defender's left: seat 0 passing before seat 2 is ER-3.0."""
    il = illegal(record(HANDS3, [(0, "attack", ["7C"]), (0, "pass")]))
    assert il["move_index"] == 1 and il["rule"] == "ER-3.0"


def test_seat_is_checked_before_cards():
    """ER-3.12 order: an out-of-turn move with an empty cards list cites ER-3.0, not the play's clause."""
    assert illegal(record(HANDS3, [(2, "attack", [])]))["rule"] == "ER-3.0"


def test_move_type_for_the_phase_is_checked_before_cards():
    """ER-3.12 order: in the join window a beat with no cards cites the window's clause ER-3.2."""
    il = illegal(record(HANDS3, [(0, "attack", ["7C"]), (2, "beat", [])]))
    assert il["move_index"] == 1 and il["rule"] == "ER-3.2"


def test_card_not_held_is_illegal_citing_its_plays_clause():
    """Attacking with a card another seat holds is illegal citing ER-3.1."""
    il = illegal(record(HANDS3, [(0, "attack", ["7D"])]))
    assert il["rule"] == "ER-3.1" and "not in your hand" in il["reason"]


WIN2 = [["9C", "9D", "9H", "9S"], ["2C", "3C", "4C", "5C"]]  # seat 0 wins by attacking with four nines (ER-4.1)


def test_attack_with_four_of_a_rank_and_empty_hand_wins():
    """ER-4.1 on the attack: the record used by the game-over tests really ends in a win."""
    v = verdict(record(WIN2, [(0, "attack", ["9C", "9D", "9H", "9S"])]))
    assert v["status"] == "finished" and v["result"] == "win"
    assert v["winner"] == {"seats": [0], "team": None}


@pytest.mark.parametrize("move", [(1, "attack", ["2C"]), (0, "pass", None), (1, "concede", None),
                                  {"seat": 1, "type": "say", "text": "gg"}, (1, "show", ["2C"])])
def test_move_after_game_over_is_illegal_er_4_5_and_result_stays_win(move):
    """A finished game accepts no move, not even say or show (ER-4.5); the verdict keeps result 'win'."""
    v = verdict(record(WIN2, [(0, "attack", ["9C", "9D", "9H", "9S"]), move]))
    assert v["status"] == "illegal"
    assert v["illegal"]["move_index"] == 1 and v["illegal"]["rule"] == "ER-4.5"
    assert v["result"] == "win"
    assert v["winner"] == {"seats": [0], "team": None}
    assert v["moves_applied"] == 1


def test_say_is_allowed_at_any_time_by_any_seat():
    """say (ER-7.1) is legal from every seat in every phase, and does not change whose turn it is."""
    says = lambda: [{"seat": s, "type": "say", "text": f"seat {s} speaks"} for s in range(3)]
    plain = ATTACK_AND_JOIN + [(1, "beat", ["7D"])]
    chatty = says() + plain[:1] + says() + plain[1:2] + says() + plain[2:3] + says() + plain[3:] + says()
    v_plain, v_chatty = verdict(record(HANDS3, plain)), verdict(record(HANDS3, chatty))
    assert v_chatty["illegal"] is None
    assert v_chatty["moves_applied"] == len(chatty)
    assert v_chatty["final"] == v_plain["final"]


def test_show_is_allowed_at_any_time_by_any_seat():
    """show (ER-7.2) of held cards is legal from every seat in every phase, and does not change the play."""
    plain = ATTACK_AND_JOIN + [(1, "beat", ["7D"])]
    shows = [(0, "show", ["TC"]), (1, "show", ["9D", "TD"]), (2, "show", ["TH"])]
    chatty = shows + plain[:1] + shows + plain[1:2] + shows + plain[2:3] + shows + plain[3:] + shows
    v_plain, v_chatty = verdict(record(HANDS3, plain)), verdict(record(HANDS3, chatty))
    assert v_chatty["illegal"] is None
    assert v_chatty["moves_applied"] == len(chatty)
    assert v_chatty["final"] == v_plain["final"]


def test_show_of_a_card_not_held_is_illegal_er_7_2():
    """A seat may only show cards from its own hand (ER-7.2), even out of turn."""
    il = illegal(record(HANDS3, [(0, "attack", ["7C"]), (1, "show", ["8C"])]))
    assert il["move_index"] == 1 and il["rule"] == "ER-7.2" and "8C" in il["reason"]


def test_illegal_verdict_shows_the_state_before_the_illegal_move():
    """Moves before the illegal one are applied; `final` is the position just before it."""
    good = [(0, "attack", ["7C"]), (2, "pass")]
    v_bad = verdict(record(HANDS3, good + [(1, "beat", ["7D"])]))
    v_good = verdict(record(HANDS3, good))
    assert v_bad["moves_applied"] == 2 and v_bad["illegal"]["rule"] == "ER-3.0"
    assert v_bad["final"] == v_good["final"]


def test_parse_does_not_mutate_the_document():
    """Validating a record leaves the caller's document unchanged."""
    doc = base()
    before = copy.deepcopy(doc)
    parse(doc)
    assert doc == before
