"""El Royale's verdict-only replay loop (domain/el_royale/replay_fast.py) on positions chosen for the rules that
random games seldom reach: the end of a battle with eliminated seats and substitutes (ER-6.1 to ER-6.3, ER-6.2 R with
three teams), the replenishing order (ER-3.9), an attacker with no card skipped (ER-3.1 R), the claims when a seat is
out (ER-3.8). On each the loop must make exactly the state `step` makes, and apply the move itself unless it is one
the loop's docstring leaves to the decider. Also its seat tables, built for every table size, and built again from
nothing (the tables are kept per size for the process). Written because `make mutation GAME=el-royale` found these
survive the random-game properties at the mutation profile's few examples (docs/mutation.md)."""

from __future__ import annotations

import pytest

import domain.el_royale as er
from domain.cards import PACK, parse_card
from domain.el_royale import replay_fast
from domain.randomness import Chance
from domain.records import parse, replay
from tests.support import record
from tests.unit.test_el_royale_rules import BEAT, REINFORCE
from tests.unit.test_worked_examples import ER64_TO_ELIMINATION, er64


def mask(text: str) -> int:
    return sum(1 << parse_card(t) for t in text.split())


def position(teams: str | None, hands: list[str], n: int | None = None, edition: str = "revised", deck: str = "",
             out=(), **fields):
    """A table of len(hands) seats (`teams`: a team letter per seat) at a moment of a battle: each seat's hand,
    the deck still to draw (in order), the eliminated seats, and the other fields as given."""
    n = len(hands)
    players = [{"name": f"P{i}"} if teams is None else {"name": f"P{i}", "team": teams[i]} for i in range(n)]
    state = er.initial_state(er.configure({"edition": edition}, players))
    state = er.evolve(state, {"type": "dealt", "dealer": 0, "starter": 0, "order": list(PACK)})
    state.hands = tuple(mask(h) for h in hands)
    state.deck, state.deck_pos = tuple(parse_card(t) for t in deck.split()), 0
    state.eliminated = sum(1 << seat for seat in out)
    pile = fields.pop("pile", "")
    state.pile, state.pile_mask = tuple(parse_card(t) for t in pile.split()), mask(pile)
    state.passed, state.added_since_defender, state.added_after_beat = 0, False, False
    state.substitute_for = None
    for key, value in fields.items():
        setattr(state, key, value)
    return state


def loop_applies_as_step(state, move) -> bool:
    """The loop makes step's state after `move` (True), or leaves the move and the state untouched (False)."""
    want = er.step(state, move, Chance("00ff"))[1]
    got, stop = er.fold_moves(state.clone(), [move], 0, Chance("00ff"))
    if stop == 0:
        assert got == state
        return False
    assert stop == 1 and got == want
    return True


@pytest.mark.parametrize("out, hand_2, defender", [((1, 4), "4H 5H 6H 7H", 2), ((1, 2, 4), "", 5)])
def test_three_teams_the_left_team_out_the_next_defender_is_the_first_opponent_after_it(out, hand_2, defender):
    """ER-6.2 R: teams A B C; B is out; seat 0 (A) beat and attacks next: its left (B) and B's partner are out, so the
    first surviving seat after the left that is not of A defends: seat 2 (C), or seat 5 (C) when seat 2 is out too;
    never the attacker's partner (seat 3) nor an eliminated seat."""
    state = position("ABCABC", ["9C 3D", "", hand_2, "8S 9S TS JS", "", "2C 3C"], out=out,
                     deck="KD KH KS QD QH QS", pile="7C 8C", phase="claim", attacker=5, defender=0, last_player=0,
                     queue=(3,), to_act=3)
    after = er.step(state, {"seat": 3, "type": "pass"}, Chance("00ff"))[1]
    assert (after.attacker, after.defender, after.substitute_for) == (0, defender, None)
    assert loop_applies_as_step(state, {"seat": 3, "type": "pass"})


def test_the_left_seat_out_its_first_surviving_partner_clockwise_defends():
    """ER-6.2: teams A B; seats 1 and 3 (B) are out; seat 5 concedes to seat 4, so seat 0 attacks: its left (1) is
    out and 1's first surviving partner clockwise (5, not the eliminated 3) defends in its place."""
    state = position("ABABAB", ["9C TC JC QC", "", "4H", "", "5H 6H 7H 8H", "2S"], out=(1, 3),
                     deck="KD KH KS QD QH QS", pile="3C", phase="defence", attacker=4, defender=5, last_player=4,
                     to_act=5)
    after = er.step(state, {"seat": 5, "type": "concede"}, Chance("00ff"))[1]
    assert (after.attacker, after.defender, after.substitute_for) == (0, 5, 1)
    assert after.hands[2] == mask("4H KS QD QH")  # replenishing goes past the eliminated seat 1 to seat 2 (ER-3.9)
    assert loop_applies_as_step(state, {"seat": 5, "type": "concede"})


def test_after_a_substitute_defended_the_seat_after_the_eliminated_one_attacks():
    """ER-6.3: seat 5 defended for the eliminated seat 1 and conceded: seat 2, the next surviving seat after seat 1,
    attacks (not seat 4 after the eliminated seat 3, nor the defender's left)."""
    state = position("ABABAB", ["9C TC JC QC", "", "4H 5H 6H 7H", "", "5D 6D 7D 8D", "2S"], out=(1, 3),
                     deck="KD KH KS QD QH QS", pile="3C", phase="defence", attacker=0, defender=5, substitute_for=1,
                     last_player=0, to_act=5)
    after = er.step(state, {"seat": 5, "type": "concede"}, Chance("00ff"))[1]
    assert (after.attacker, after.defender, after.substitute_for) == (2, 5, 3)
    assert loop_applies_as_step(state, {"seat": 5, "type": "concede"})


def test_an_attacker_holding_no_card_is_skipped_when_deck_and_discard_are_empty():
    """ER-3.1 R with ER-2.3 R: seat 1 concedes; seat 2 would attack but holds nothing and nothing is left to draw,
    so seat 0 attacks seat 1."""
    state = position(None, ["9C", "5D", ""], pile="3C", phase="defence", attacker=0, defender=1, last_player=0,
                     to_act=1)
    after = er.step(state, {"seat": 1, "type": "concede"}, Chance("00ff"))[1]
    assert (after.attacker, after.defender) == (0, 1)
    assert loop_applies_as_step(state, {"seat": 1, "type": "concede"})


@pytest.mark.parametrize("teams, out, attacker, defender, sub, move, drawn", [
    # ER-3.9 after a beat: the attacker, the defender, then clockwise from the defender's left
    (None, (), 0, 1, None, "pass", {0: "KD", 1: "KH", 2: "KS QD QH", 3: "QS JD"}),
    # ... with a substitute (ER-6.2): the attacker, the substitute, then clockwise from the substitute's left
    ("ABAB", (1,), 0, 3, 1, "pass", {0: "KD", 3: "KH KS", 2: "QD QH QS"}),
    # after a concession: the attacker, then clockwise from its left, the defender in its turn
    ("ABAB", (1,), 0, 3, 1, "concede", {0: "KD", 2: "KH KS QD", 3: "QH"}),
    (None, (), 0, 1, None, "concede", {0: "KD", 1: "KH", 2: "KS QD QH", 3: "QS JD"}),
    # the seat before a substitute draws last, after the seats from the substitute's left
    ("ABABAB", (1,), 0, 3, 1, "pass", {0: "KD", 3: "KH KS", 4: "QD", 5: "QH", 2: "QS JD JH"}),
])
def test_replenishing_goes_in_the_order_of_er_3_9(teams, out, attacker, defender, sub, move, drawn):
    hands = ["9C TC JC", "5D 6D 7D", "4H", "8S 9S", "5H 6H 7H", "2S 4S 5S"][:len(teams or "ABCD")]
    for seat in out:
        hands[seat] = ""
    if move == "pass":  # the last claim offer declined: the pile is discarded
        fields = {"phase": "claim", "queue": (2,), "to_act": 2, "last_player": defender}
    else:  # the defender takes the pile of two: three cards in hand
        fields = {"phase": "defence", "to_act": defender, "last_player": attacker}
        hands[defender] = "5D"
    state = position(teams, hands, out=out, deck="KD KH KS QD QH QS JD JH JS TD", pile="3C 3D", attacker=attacker,
                     defender=defender, substitute_for=sub, **fields)
    after = er.step(state, {"seat": fields["to_act"], "type": move}, Chance("00ff"))[1]
    assert {seat: after.hands[seat] & ~state.hands[seat] & ~state.pile_mask for seat in drawn} == {
        seat: mask(cards) for seat, cards in drawn.items()}
    assert loop_applies_as_step(state, {"seat": fields["to_act"], "type": move})


@pytest.mark.parametrize("edition, passed", [("revised", 0b1000), ("classic", 0b1010)])
def test_an_eliminated_seat_is_never_offered_the_pile(edition, passed):
    """ER-3.8 with ER-6.1: the claims go from the attacker clockwise over surviving seats only (the defender who beat
    last is not offered in either edition here)."""
    state = position(None, ["9C", "5D", "", "8S"], edition=edition, out=(2,), pile="3C 4C", phase="reinforce",
                     attacker=0, defender=1, last_player=1, passed=passed, to_act=0)
    after = er.step(state, {"seat": 0, "type": "pass"}, Chance("00ff"))[1]
    assert (after.phase, after.queue) == ("claim", (0, 3))
    assert loop_applies_as_step(state, {"seat": 0, "type": "pass"})


ORDINARY = [  # records of ordinary moves only: attacks, throw-ins, beats, passes in every window, concessions, claims
    record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (2, "pass"), (1, "attack", ["7D"])]),
    record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "claim"), (1, "attack", ["7D"])]),
    record(REINFORCE, BEAT + [(1, "pass"), (2, "throw_in", ["6H"]), (0, "pass"), (1, "pass"), (2, "pass"),
                              (0, "pass"), (1, "claim"), (1, "attack", ["7D"])], edition="classic"),
    er64(ER64_TO_ELIMINATION[:28]),
]


@pytest.mark.parametrize("doc", ORDINARY)
def test_the_loop_folds_a_record_of_ordinary_moves_in_one_call(doc):
    """What the loop's docstring does not leave to the decider, it applies itself: the whole record at once."""
    rec = parse(doc)
    slow = replay(rec, keep_events=True)
    state = er.initial_state(rec.setup)
    for event in er.start(rec.setup, rec.chance):
        state = er.evolve(state, event)
    folded, stop = er.fold_moves(state, rec.moves, 0, rec.chance)
    assert stop == len(rec.moves) and folded == slow.state


@pytest.mark.parametrize("edition, held", [("revised", 13), ("revised", 14), ("classic", 16), ("classic", 20)])
def test_a_concession_that_eliminates_nobody_is_the_loop_s_own(edition, held):
    """ER-5.1 eliminates only in the revised edition and only above 16 cards: any other concession the loop makes
    itself (`held` cards before taking a pile of 2, or 3: 15 and 16 in revised, 18 and 22 in classic)."""
    cards = [c for c in PACK if c not in (parse_card("3C"), parse_card("3D"), parse_card("9C"))][:held]
    state = position(None, ["9C", "", "4H 5H 6H 7H"], edition=edition, deck="KD KH KS", pile="3C 3D",
                     phase="defence", attacker=0, defender=1, last_player=0, to_act=1)
    state.hands = (state.hands[0], sum(1 << c for c in cards), state.hands[2])
    if held == 14:
        state.pile, state.pile_mask = state.pile + (cards[-1],), state.pile_mask | 1 << cards[-1]
        state.hands = (state.hands[0], state.hands[1] & ~(1 << cards[-1]), state.hands[2])
    assert loop_applies_as_step(state, {"seat": 1, "type": "concede"})


def test_a_concession_above_16_cards_in_the_revised_edition_is_left_to_the_decider():
    cards = [c for c in PACK if c not in (parse_card("3C"), parse_card("3D"), parse_card("9C"))][:15]
    state = position(None, ["9C", "", "4H 5H 6H 7H"], deck="KD KH KS", pile="3C 3D", phase="defence", attacker=0,
                     defender=1, last_player=0, to_act=1)
    state.hands = (state.hands[0], sum(1 << c for c in cards), state.hands[2])
    assert not loop_applies_as_step(state, {"seat": 1, "type": "concede"})


def test_drawing_stops_quietly_when_deck_and_discard_are_both_empty():
    """ER-2.3 R: nothing to draw is no reshuffle; the loop plays on."""
    state = position(None, ["9C", "5D", "4H"], pile="3C", phase="defence", attacker=0, defender=1, last_player=0,
                     to_act=1)
    assert loop_applies_as_step(state, {"seat": 1, "type": "concede"})


# -- the seat tables --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 9))
def test_the_loop_s_seat_tables_go_clockwise_for_every_table_size(n):
    table = replay_fast._Table(n)  # built afresh: _Table.of keeps one per size for the process
    assert table.after == tuple(tuple([*range(seat + 1, n), *range(seat + 1)]) for seat in range(n))
    assert table.from_ == tuple(tuple([*range(seat, n), *range(seat)]) for seat in range(n))
    assert len(table.offer) == 1 << n
    for eligible in range(1 << n):
        for seat in range(n):
            offered = [x for x in table.after[seat] if eligible & 1 << x]
            assert table.offer[eligible][seat] == (offered[0] if offered else -1)


def test_a_replay_builds_the_seat_table_of_a_size_it_has_not_met(monkeypatch):
    monkeypatch.setattr(replay_fast._Table, "_made", {})
    doc = record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (2, "pass")])
    fast, slow = replay(parse(doc)), replay(parse(doc), keep_events=True)
    assert fast.state == slow.state and fast.moves_applied == 8
    assert set(replay_fast._Table._made) == {3} and replay_fast._Table.of(3) is replay_fast._Table._made[3]
