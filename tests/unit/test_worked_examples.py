"""The rulebook's worked examples (rules/el-royale.md, "Worked examples from the seeds", 1 to 8, and ER-6.4)
reproduced as stacked-deck record games, in every edition where they apply.

Every move list spells out the offers of the join window (ER-3.2), the reinforce window (ER-3.6) and the
claim window (ER-3.8) exactly as the clauses order them (ER-3.3: after a throw-in everybody eligible is asked
again, the thrower too), so a record that replays at all already checks the order of offers.

Deals use `tests.support.stacked_deck` (dealer 0 unless said otherwise); `deck_top` fixes every card drawn
when replenishing (ER-3.9), so final hands are known exactly.
"""

from __future__ import annotations

import pytest

from domain.records import parse, replay
from tests.support import record, verdict

EDITIONS = ("classic", "revised")
TEAMS_4 = ["A", "B", "A", "B"]
NSEW = ["NS", "EW", "NS", "EW"]  # ER-6.4: North 0, West 1, South 2, East 3


# ---------------------------------------------------------------- move shorthands


def atk(seat, *cards):
    return (seat, "attack", list(cards))


def thr(seat, *cards):
    return (seat, "throw_in", list(cards))


def beat(seat, *cards):
    return (seat, "beat", list(cards))


def concede(seat):
    return (seat, "concede")


def claim(seat):
    return (seat, "claim")


def take(seat, *cards):
    return (seat, "take", list(cards))


def ps(*seats):
    """One pass by each seat, in the order given (the order the window offers them)."""
    return [(seat, "pass") for seat in seats]


def hand(v: dict, seat: int) -> set[str]:
    """A seat's hand in a verdict, as a set (contract §2: each hand in any order)."""
    return set(v["final"]["hands"][str(seat)])


def battle_starts(doc: dict) -> list[tuple[int, int, int | None]]:
    """(attacker, defender, substitute_for) of every battle the record started, in order."""
    events = replay(parse(doc), keep_events=True).events
    return [(e["attacker"], e["defender"], e["substitute_for"]) for e in events if e["type"] == "battle_started"]


def assert_won(v: dict, seats: list[int], team: str | None, moves: int) -> None:
    assert v["status"] == "finished"
    assert v["result"] == "win"
    assert v["winner"] == {"seats": seats, "team": team}
    assert v["illegal"] is None
    assert v["moves_applied"] == moves


def assert_illegal(v: dict, index: int, rule: str) -> None:
    assert v["status"] == "illegal"
    assert v["illegal"]["move_index"] == index
    assert v["illegal"]["rule"] == rule
    assert v["moves_applied"] == index
    assert v["result"] is None and v["winner"] is None


def assert_no_winner_yet(v: dict, moves: int) -> None:
    assert v["status"] == "in_progress"
    assert v["result"] is None and v["winner"] is None and v["illegal"] is None
    assert v["moves_applied"] == moves


# ---------------------------------------------------------------- example 1

# 3 players. Seat 0 attacks seat 1, seat 1 (on seat 2's right) concedes, seat 2 attacks next (ER-3.10).
EX1_HANDS = [["4C", "7C", "8D", "JD"], ["2H", "3H", "5S", "6S"], ["9C", "9D", "9H", "9S"]]
EX1_MOVES = [atk(0, "4C"), *ps(2, 0), concede(1), atk(2, "9C", "9D", "9H", "9S")]


@pytest.mark.parametrize("edition", EDITIONS)
def test_four_nines_attacking_after_the_right_hand_player_conceded_win_at_once(edition):
    """Worked example 1: attack with four nines and nothing else after the player on your right conceded (ER-4.1, ER-3.10)."""
    v = verdict(record(EX1_HANDS, EX1_MOVES, edition=edition, deck_top=["KH"]))
    assert_won(v, [2], None, 5)
    f = v["final"]
    assert f["battle_pile"] == ["9C", "9D", "9H", "9S"]
    assert f["hands"]["2"] == []
    assert hand(v, 1) == {"2H", "3H", "5S", "6S", "4C"}  # the concession
    assert hand(v, 0) == {"7C", "8D", "JD", "KH"}  # the attacker replenished first (ER-3.9)
    assert f["battles"] == 1 and f["deck_count"] == 52 - 12 - 1 and f["discard_count"] == 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_after_the_four_nines_win_no_move_is_accepted(edition):
    """Worked example 1 then ER-4.5: a finished game accepts no further moves; the result stays a win."""
    v = verdict(record(EX1_HANDS, EX1_MOVES + [atk(0, "7C")], edition=edition, deck_top=["KH"]))
    assert v["status"] == "illegal"
    assert v["illegal"]["move_index"] == 5 and v["illegal"]["rule"] == "ER-4.5"
    assert v["result"] == "win" and v["winner"] == {"seats": [2], "team": None}


# ---------------------------------------------------------------- example 2

# 3 players: seat 0 attacks seat 1 (four queens) with two jacks; the top jack is JS.
EX2_HANDS = [["JD", "JS", "2C", "3C"], ["QC", "QH", "QD", "QS"], ["5H", "6H", "7H", "8H"]]
EX2_OPEN = [atk(0, "JD", "JS"), *ps(2, 0)]  # join window: the defender's left first, then the attacker


def test_revised_four_queens_beat_the_top_jack_at_once_and_win():
    """Worked example 2, revised: beat with all four queens at once (ER-3.4 revised) and win on the beat (ER-4.1)."""
    v = verdict(record(EX2_HANDS, EX2_OPEN + [beat(1, "QC", "QH", "QD", "QS")], edition="revised"))
    assert_won(v, [1], None, 4)
    assert v["final"]["battle_pile"] == ["JD", "JS", "QC", "QH", "QD", "QS"]
    assert v["final"]["hands"]["1"] == []
    assert v["final"]["battles"] == 0


def test_classic_queen_of_the_top_suit_beats_then_three_queens_thrown_in_first_win():
    """Worked example 2, classic: beat with QS (ER-3.4 classic), throw in the rest first in the reinforce window (ER-3.6 classic) and win."""
    v = verdict(record(EX2_HANDS, EX2_OPEN + [beat(1, "QS"), thr(1, "QC", "QH", "QD")], edition="classic"))
    assert_won(v, [1], None, 5)
    assert v["final"]["battle_pile"] == ["JD", "JS", "QS", "QC", "QH", "QD"]
    assert v["final"]["hands"]["1"] == []


def test_classic_four_queens_at_once_are_not_a_beat():
    """Worked example 2, classic: a beat is exactly one card (ER-3.4 classic)."""
    v = verdict(record(EX2_HANDS, EX2_OPEN + [beat(1, "QC", "QH", "QD", "QS")], edition="classic"))
    assert_illegal(v, 3, "ER-3.4")
    assert hand(v, 1) == {"QC", "QH", "QD", "QS"}
    assert v["final"]["battle_pile"] == ["JD", "JS"]


def test_classic_a_queen_of_another_suit_cannot_beat_the_top_jack():
    """Worked example 2, classic: only the queen of the top jack's suit beats it (ER-3.4 classic: same rank or same suit higher)."""
    v = verdict(record(EX2_HANDS, EX2_OPEN + [beat(1, "QH")], edition="classic"))
    assert_illegal(v, 3, "ER-3.4")


def test_revised_higher_queens_without_the_top_suit_cannot_beat():
    """Worked example 2, revised: a higher rank beats only when one of its cards has the top card's suit (ER-3.4 revised)."""
    v = verdict(record(EX2_HANDS, EX2_OPEN + [beat(1, "QC", "QH", "QD")], edition="revised"))
    assert_illegal(v, 3, "ER-3.4")


def test_revised_defender_cannot_throw_in_first_after_a_one_queen_beat():
    """Worked example 2, revised: reinforce offers start at the defender's left, so the classic way is not open (ER-3.6 revised, ER-3.0)."""
    v = verdict(record(EX2_HANDS, EX2_OPEN + [beat(1, "QS"), thr(1, "QC", "QH", "QD")], edition="revised"))
    assert_illegal(v, 4, "ER-3.0")
    assert "seat 2" in v["illegal"]["reason"]
    assert hand(v, 1) == {"QC", "QH", "QD"}


# ---------------------------------------------------------------- example 3

# Teams A (0, 2) and B (1, 3). Seat 0 holds 5 5 J J, seat 2 is the partner, seat 1 defends.
EX3_HANDS = [["5S", "5H", "JC", "JS"], ["JH", "2D", "3D", "4D"], ["JD", "6C", "7C", "8C"], ["9C", "TC", "QC", "KC"]]
EX3_OPEN = [atk(0, "5S", "5H"), *ps(2, 3, 0), beat(1, "JH")]  # JH beats the second five, 5H
EX3_REINFORCE = {
    "classic": [*ps(1), thr(2, "JD"), *ps(3), thr(0, "JC", "JS")],  # offers start with the defender
    "revised": [thr(2, "JD"), *ps(3), thr(0, "JC", "JS")],  # offers start at the defender's left
}


@pytest.mark.parametrize("edition", EDITIONS)
def test_two_fives_beaten_by_a_jack_partner_jack_then_own_two_jacks_win_for_the_team(edition):
    """Worked example 3: partner throws in a jack, you throw in two jacks and your team wins (ER-3.6, ER-4.1, ER-4.2)."""
    v = verdict(record(EX3_HANDS, EX3_OPEN + EX3_REINFORCE[edition], edition=edition, teams=TEAMS_4))
    assert_won(v, [0, 2], "A", 9 if edition == "classic" else 8)
    f = v["final"]
    assert f["battle_pile"] == ["5S", "5H", "JH", "JD", "JC", "JS"]
    assert f["hands"]["0"] == []
    assert hand(v, 2) == {"6C", "7C", "8C"}
    assert f["battles"] == 0 and f["deck_count"] == 36


# ---------------------------------------------------------------- example 4

# Teams A (0, 2) and B (1, 3). Partner seat 0 attacks seat 1; "you" are seat 2 with 8 K K K.
EX4_HANDS = [["8H", "2C", "3C", "4C"], ["KS", "2D", "3D", "4D"], ["8S", "KC", "KD", "KH"], ["5C", "6C", "7C", "9C"]]
# join window: you (defender's left) throw in your 8, then 3, 0 and you again are asked (ER-3.3)
EX4_OPEN = [atk(0, "8H"), thr(2, "8S"), *ps(3, 0, 2), beat(1, "KS")]
EX4_REINFORCE = {"classic": [*ps(1), thr(2, "KC", "KD", "KH")], "revised": [thr(2, "KC", "KD", "KH")]}


@pytest.mark.parametrize("edition", EDITIONS)
def test_join_with_an_eight_then_three_kings_after_the_king_beat_win_for_the_team(edition):
    """Worked example 4: throw in your 8 (ER-3.2), the defender beats with the king of its suit, your three kings win (ER-4.1, ER-4.2)."""
    v = verdict(record(EX4_HANDS, EX4_OPEN + EX4_REINFORCE[edition], edition=edition, teams=TEAMS_4))
    assert_won(v, [0, 2], "A", 8 if edition == "classic" else 7)
    assert v["final"]["battle_pile"] == ["8H", "8S", "KS", "KC", "KD", "KH"]
    assert v["final"]["hands"]["2"] == []
    assert hand(v, 1) == {"2D", "3D", "4D"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_beating_king_must_be_of_the_thrown_in_eights_suit(edition):
    """Worked example 4: the top card after the join window is your 8S, so the king of the attack's suit (KH) cannot beat it (ER-3.4)."""
    hands = [["8H", "2C", "3C", "4C"], ["KS", "KH", "3D", "4D"], ["8S", "KC", "KD", "7C"], ["5C", "6C", "7D", "9C"]]
    bad = verdict(record(hands, EX4_OPEN[:-1] + [beat(1, "KH")], edition=edition, teams=TEAMS_4))
    assert_illegal(bad, 5, "ER-3.4")
    assert bad["final"]["battle_pile"] == ["8H", "8S"]


# ---------------------------------------------------------------- example 5

# Teams A (0, 2) and B (1, 3); "you" are seat 0. Seat 0 needs five cards 4 4 4 T T: it first concedes TD.
# B1 3->0 conceded; B2 1->2 beaten, pile discarded; B3 2->3 conceded; B4 0->1 the example.
EX5_HANDS = [["4C", "4D", "4H", "TC"], ["TH", "2C", "7D", "8D"], ["TS", "3C", "6S", "9S"], ["TD", "5H", "7H", "9H"]]
EX5_DRAWS = ["AC", "AD", "AH", "AS"]  # B1: seat 3; B2: seats 1 then 2; B3: seat 2


def ex5_moves(edition: str) -> list:
    classic = edition == "classic"
    return [
        atk(3, "TD"), *ps(1, 2, 3), concede(0),  # B1: seat 0 now holds 4 4 4 T T
        atk(1, "2C"), *ps(3, 0, 1), beat(2, "3C"),  # B2
        *(ps(2, 3, 0, 1) if classic else ps(3, 0, 1)),  # reinforce window
        *ps(1, 3, 0),  # claim window: attacker first, the defender not eligible in either edition
        atk(2, "6S"), *ps(0, 1, 2), concede(3),  # B3: the defender attacked next (ER-3.10)
        atk(0, "4C", "4D", "4H"), *ps(2, 3, 0), beat(1, "TH"),  # B4: TH beats the last four, 4H
        *([*ps(1), thr(2, "TS"), *ps(3), thr(0, "TC", "TD")] if classic else [thr(2, "TS"), *ps(3), thr(0, "TC", "TD")]),
    ]


@pytest.mark.parametrize("edition", EDITIONS)
def test_three_fours_beaten_by_a_ten_partner_ten_then_own_two_tens_win_for_the_team(edition):
    """Worked example 5: hand 4 4 4 T T attacks three fours; after the ten beat and partner's ten, two tens win (ER-4.1, ER-4.2)."""
    moves = ex5_moves(edition)
    doc = record(EX5_HANDS, moves, edition=edition, teams=TEAMS_4, starter=3, deck_top=EX5_DRAWS)
    before = verdict(record(EX5_HANDS, moves[:-(9 if edition == "classic" else 8)], edition=edition, teams=TEAMS_4,
                            starter=3, deck_top=EX5_DRAWS))
    assert_no_winner_yet(before, 22 if edition == "classic" else 21)
    assert hand(before, 0) == {"4C", "4D", "4H", "TC", "TD"}
    v = verdict(doc)
    assert_won(v, [0, 2], "A", 31 if edition == "classic" else 29)
    f = v["final"]
    assert f["battle_pile"] == ["4C", "4D", "4H", "TH", "TS", "TC", "TD"]
    assert f["hands"]["0"] == []
    assert hand(v, 1) == {"7D", "8D", "AD"}
    assert hand(v, 3) == {"5H", "7H", "9H", "AC", "6S"}
    assert f["battles"] == 3 and f["discard_count"] == 2 and f["deck_count"] == 52 - 16 - 4
    assert battle_starts(doc) == [(3, 0, None), (1, 2, None), (2, 3, None), (0, 1, None)]


# ---------------------------------------------------------------- example 6

# 3 players: seat 0 attacks with 8C; seat 1 holds the other three 8s and KD.
EX6_HANDS = [["8C", "2C", "3C", "4C"], ["8D", "8H", "8S", "KD"], ["5H", "6H", "7H", "9H"]]
EX6_DRAWS = ["AS", "QS", "JS", "TS"]  # after the beat: the attacker 1 card, then the defender 3 (ER-3.9)
EX6_OPEN = [atk(0, "8C"), *ps(2, 0)]
EX6_EIGHTS = {
    "revised": [beat(1, "8D", "8H", "8S")],
    "classic": [beat(1, "8D"), thr(1, "8H", "8S")],  # one card beats; the defender throws in first
}
EX6_REST = {
    # reinforce window then claim window (nobody claims: the pile is discarded), then the defender attacks
    "revised": [*ps(2, 0), *ps(0, 2), atk(1, "KD")],
    "classic": [*ps(2, 0, 1), *ps(0, 2), atk(1, "KD")],
}


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_other_three_eights_complete_the_rank_but_do_not_win_with_a_card_left(edition):
    """Worked example 6: all four 8s in the pile but a card still in hand: no win (ER-4.1)."""
    moves = EX6_OPEN + EX6_EIGHTS[edition]
    v = verdict(record(EX6_HANDS, moves, edition=edition, deck_top=EX6_DRAWS))
    assert_no_winner_yet(v, len(moves))
    assert v["final"]["battle_pile"] == ["8C", "8D", "8H", "8S"]
    assert v["final"]["hands"]["1"] == ["KD"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_battle_of_the_four_eights_ends_and_the_defender_attacks_next(edition):
    """Worked example 6: the battle ends (pile discarded, ER-3.8), nobody won, the defender attacks next (ER-3.10)."""
    moves = EX6_OPEN + EX6_EIGHTS[edition] + EX6_REST[edition]
    v = verdict(record(EX6_HANDS, moves, edition=edition, deck_top=EX6_DRAWS))
    assert_no_winner_yet(v, len(moves))
    f = v["final"]
    assert f["battles"] == 1 and f["discard_count"] == 4
    assert f["battle_pile"] == ["KD"]
    assert hand(v, 0) == {"2C", "3C", "4C", "AS"}
    assert hand(v, 1) == {"QS", "JS", "TS"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_after_the_four_eights_only_eights_could_be_thrown_in(edition):
    """Worked example 6: the reinforce window asks for the top card's rank, so a 5 cannot be thrown in (ER-3.6, ER-3.7)."""
    moves = EX6_OPEN + EX6_EIGHTS[edition] + [thr(2, "5H")]
    v = verdict(record(EX6_HANDS, moves, edition=edition, deck_top=EX6_DRAWS))
    assert_illegal(v, len(moves) - 1, "ER-3.7")  # seat 2 is offered next in both editions


def test_classic_the_other_three_eights_at_once_are_not_a_beat():
    """Worked example 6, classic: a beat is exactly one card (ER-3.4 classic)."""
    v = verdict(record(EX6_HANDS, EX6_OPEN + [beat(1, "8D", "8H", "8S")], edition="classic"))
    assert_illegal(v, 3, "ER-3.4")


# ---------------------------------------------------------------- example 7

# 3 players: seat 0 attacks seat 1 with two jacks; "you" are seat 2 (J J Q Q), neither attacker nor defender.
EX7_HANDS = [["JC", "JD", "2C", "3C"], ["QD", "4D", "5D", "6D"], ["JH", "JS", "QH", "QS"]]
EX7_OPEN = [atk(0, "JC", "JD"), *ps(2, 0), beat(1, "QD")]  # you keep your jacks in the join window
EX7_QUEENS = {
    "classic": [*ps(1), thr(2, "QH", "QS"), *ps(0, 1)],
    "revised": [thr(2, "QH", "QS"), *ps(0, 1)],  # the defender is offered again once you added a card
}


@pytest.mark.parametrize("edition", EDITIONS)
def test_after_the_queen_beat_your_jacks_can_no_longer_be_thrown_in(edition):
    """Worked example 7: you may throw in both queens, then your jacks are refused: a throw-in must be of the top card's rank (ER-3.7)."""
    moves = EX7_OPEN + EX7_QUEENS[edition] + [thr(2, "JH", "JS")]
    v = verdict(record(EX7_HANDS, moves, edition=edition))
    assert_illegal(v, len(moves) - 1, "ER-3.7")
    assert v["final"]["battle_pile"] == ["JC", "JD", "QD", "QH", "QS"]
    assert v["final"]["hands"]["2"] == ["JH", "JS"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_your_jacks_are_refused_even_as_your_first_reinforce_throw_in(edition):
    """Worked example 7: the reinforce window asks for queens from the start (ER-3.6, ER-3.7)."""
    moves = EX7_OPEN + ([*ps(1)] if edition == "classic" else []) + [thr(2, "JH", "JS")]
    v = verdict(record(EX7_HANDS, moves, edition=edition))
    assert_illegal(v, len(moves) - 1, "ER-3.7")
    assert hand(v, 2) == {"JH", "JS", "QH", "QS"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_with_jacks_left_over_you_cannot_win_the_battle(edition):
    """Worked example 7: you pass, nobody claims, the battle ends with no winner and your jacks still in hand (ER-3.8, ER-4.1)."""
    # classic: everybody may claim (you added a card after the beat); revised: everybody but you (the last to play)
    claim_window = ps(0, 1, 2) if edition == "classic" else ps(0, 1)
    moves = EX7_OPEN + EX7_QUEENS[edition] + ps(2) + claim_window
    v = verdict(record(EX7_HANDS, moves, edition=edition, deck_top=["AH", "AS", "2H", "2S", "3S"]))
    assert_no_winner_yet(v, len(moves))
    f = v["final"]
    assert f["battles"] == 1 and f["discard_count"] == 5 and f["battle_pile"] == []
    assert hand(v, 2) == {"JH", "JS", "2S", "3S"}  # replenish: attacker, defender, then from the defender's left


def test_your_jacks_could_still_be_thrown_in_during_the_join_window():
    """Worked example 7 (contrast): before the beat the jacks are of the asked rank (ER-3.2), they no longer are after it."""
    v = verdict(record(EX7_HANDS, [atk(0, "JC", "JD"), thr(2, "JH", "JS")], edition="revised"))
    assert_no_winner_yet(v, 2)
    assert v["final"]["battle_pile"] == ["JC", "JD", "JH", "JS"]
    assert v["final"]["hands"]["2"] == ["QH", "QS"]  # four jacks, but a hand left: no win (ER-4.1)


# ---------------------------------------------------------------- example 8

# 2 players: seat 0 attacks with KS; seat 1 holds the other three kings and QS.
EX8_HANDS = [["KS", "2C", "3C", "4C"], ["KC", "KD", "KH", "QS"]]
EX8_OPEN = [atk(0, "KS"), *ps(0)]  # join window: only the attacker is eligible


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_non_king_cannot_beat_a_king_even_of_its_suit(edition):
    """Worked example 8: against a king only kings can be played: QS is refused (ER-3.4)."""
    v = verdict(record(EX8_HANDS, EX8_OPEN + [beat(1, "QS")], edition=edition))
    assert_illegal(v, 2, "ER-3.4")
    assert v["final"]["battle_pile"] == ["KS"]


def test_revised_a_beat_cannot_add_a_non_king_to_the_kings():
    """Worked example 8, revised: a beat is cards of a single rank, so the hand cannot be emptied on a king (ER-3.4 revised)."""
    v = verdict(record(EX8_HANDS, EX8_OPEN + [beat(1, "KC", "KD", "KH", "QS")], edition="revised"))
    assert_illegal(v, 2, "ER-3.4")


EX8_KINGS = {"revised": [beat(1, "KC", "KD", "KH")], "classic": [beat(1, "KC"), thr(1, "KD", "KH")]}
EX8_REST = {"revised": [*ps(0), *ps(0)], "classic": [*ps(0, 1), *ps(0)]}  # reinforce then claim window


@pytest.mark.parametrize("edition", EDITIONS)
def test_beating_a_king_with_the_other_three_kings_does_not_win(edition):
    """Worked example 8: all four kings end in the pile but the defender keeps a card: nobody wins (ER-4.1)."""
    moves = EX8_OPEN + EX8_KINGS[edition]
    v = verdict(record(EX8_HANDS, moves, edition=edition))
    assert_no_winner_yet(v, len(moves))
    assert v["final"]["battle_pile"] == ["KS", "KC", "KD", "KH"]
    assert v["final"]["hands"]["1"] == ["QS"]
    moves += EX8_REST[edition]
    v = verdict(record(EX8_HANDS, moves, edition=edition))
    assert_no_winner_yet(v, len(moves))
    assert v["final"]["battles"] == 1 and v["final"]["discard_count"] == 4


# ER-4.1 R: with deck and discard exhausted, a defender holding exactly the other three kings does win.
# 2 players, classic (no elimination). Seat 1 attacks seat 0 with pairs and seat 0 always concedes, so no card is
# ever discarded; seat 1 keeps KC KH until the deck is gone.
ER41_SINK = ["KD", "KS", "AC", "AD"]
ER41_B = ["KC", "KH", "AH", "AS"]


def _er41_pairs() -> list[list[str]]:
    ranks = "23456789TJQ"
    return [pair for r in ranks for pair in ([r + "C", r + "D"], [r + "H", r + "S"])]


def test_classic_defender_holding_exactly_the_other_three_kings_wins_once_deck_and_discard_are_empty():
    """ER-4.1 R (worked example 8's exception): with deck and discard exhausted, holding exactly the other three kings wins."""
    pairs = _er41_pairs()
    assert len(pairs) == 22
    moves = []
    for pair in [["AH", "AS"]] + pairs:  # 23 battles; seat 1 draws two cards after each while the deck lasts
        moves += [atk(1, *pair), *ps(1), concede(0)]
    moves += [atk(1, "KC"), *ps(1), beat(0, "KD"), *ps(0, 1), claim(1)]  # seat 1 claims: now KH KC KD, no draw
    before = verdict(record([ER41_SINK, ER41_B], moves, edition="classic", starter=1,
                            deck_top=[c for p in pairs for c in p]))
    assert_no_winner_yet(before, 75)
    assert before["final"]["deck_count"] == 0 and before["final"]["discard_count"] == 0
    assert hand(before, 1) == {"KC", "KD", "KH"}
    moves += [atk(0, "KS"), *ps(0), beat(1, "KH"), thr(1, "KC", "KD")]
    v = verdict(record([ER41_SINK, ER41_B], moves, edition="classic", starter=1, deck_top=[c for p in pairs for c in p]))
    assert_won(v, [1], None, 79)
    assert v["final"]["battle_pile"] == ["KS", "KH", "KC", "KD"]
    assert len(v["final"]["hands"]["0"]) == 48


# ---------------------------------------------------------------- ER-6.4 (revised, North-South v East-West)

# North 0, West 1, South 2, East 3. North attacks West with three of a rank and South throws in the fourth; West
# concedes (+4). South then attacks East with a single card and East concedes, so North attacks West again.
# West: 4 -> 8 -> 12 -> 16 (not more than 16) -> 20: eliminated (ER-5.1).
ER64_HANDS = [["2C", "2D", "2H", "3C"], ["6C", "6D", "6H", "6S"], ["2S", "3S", "4S", "5S"], ["7C", "7D", "7H", "7S"]]
ER64_DRAWS = ["3D", "3H", "4C", "8C",  # B1: North 3, South 1
              "8D",  # B2: South
              "4D", "4H", "5C", "8H",  # B3
              "9C",  # B4
              "5D", "5H", "KC", "9D",  # B5
              "9H",  # B6
              "JD", "TC",  # after the picks: North, South
              "TD", "TH", "TS", "JC", "JH"]  # B8 South, B9 North, B10 South, B11 North, B12 North


def _n_attacks_w(r: str) -> list:
    return [atk(0, r + "C", r + "D", r + "H"), thr(2, r + "S"), *ps(3, 0, 2), concede(1)]


def _s_attacks_e(card: str) -> list:
    return [atk(2, card), *ps(0, 1, 2), concede(3)]


ER64_TO_ELIMINATION = (_n_attacks_w("2") + _s_attacks_e("8C") + _n_attacks_w("3") + _s_attacks_e("8D")
                       + _n_attacks_w("4") + _s_attacks_e("8H") + _n_attacks_w("5"))  # 39 moves, 7 battles
ER64_PICKS = [take(0, "6C", "6D"), take(2), take(3, "2C")]
ER64_AFTER = [
    atk(2, "9C"), *ps(0, 2), concede(3),  # B8 S->E; E's left is North: North attacks next
    atk(0, "6C"), *ps(0, 2), beat(3, "7C"), *ps(0, 2), *ps(0, 2),  # B9 N->E substituting for W; next: South (ER-6.3)
    atk(2, "9D"), *ps(0, 2), beat(3, "9C"), *ps(0, 2), *ps(2, 0),  # B10 S->E beaten: East attacks next (ER-3.10)
    atk(3, "7D"), *ps(2, 3), beat(0, "JD"), *ps(2, 3), *ps(3, 2),  # B11 E->N beaten: North attacks next
    atk(0, "6D"), *ps(0, 2), concede(3),  # B12 N->E substitute concedes: next is South (ER-6.3), not North
]


def er64(moves: list) -> dict:
    return record(ER64_HANDS, moves, edition="revised", teams=NSEW, deck_top=ER64_DRAWS)


def test_revised_west_with_exactly_16_cards_after_conceding_stays_in():
    """ER-6.4 / ER-5.1: 16 cards after conceding is not more than 16: no elimination."""
    v = verdict(er64(ER64_TO_ELIMINATION[:28]))
    assert_no_winner_yet(v, 28)
    assert len(v["final"]["hands"]["1"]) == 16
    assert v["final"]["eliminated"] == []


def test_revised_west_conceding_to_20_cards_is_eliminated_and_lays_out_the_cards():
    """ER-6.4 / ER-5.1, ER-5.2: West concedes to 20 cards, is eliminated at once, its cards laid out under its seat."""
    v = verdict(er64(ER64_TO_ELIMINATION))
    assert_no_winner_yet(v, 39)
    f = v["final"]
    assert f["eliminated"] == [1]
    assert hand(v, 1) == {r + s for r in "23456" for s in "CDHS"}
    assert f["battles"] == 7 and f["battle_pile"] == [] and f["discard_count"] == 0
    assert hand(v, 0) == {"KC"} and hand(v, 2) == {"9C", "9D", "9H"}  # no replenish before the picks
    assert len(f["hands"]["3"]) == 7


def test_revised_after_west_is_eliminated_each_survivor_takes_once_from_the_attacker_clockwise():
    """ER-6.4 / ER-5.2: North (the attacker), South and East each make one take; the rest is discarded, then replenish."""
    v = verdict(er64(ER64_TO_ELIMINATION + ER64_PICKS[:1]))
    assert_no_winner_yet(v, 40)
    assert len(v["final"]["hands"]["1"]) == 18 and "6C" not in hand(v, 1)
    v = verdict(er64(ER64_TO_ELIMINATION + ER64_PICKS))
    assert_no_winner_yet(v, 42)
    f = v["final"]
    assert f["hands"]["1"] == []
    assert f["discard_count"] == 17
    assert hand(v, 0) == {"KC", "6C", "6D", "JD"}  # the attacker replenishes first (ER-3.9 as after a concession)
    assert hand(v, 2) == {"9C", "9D", "9H", "TC"}
    assert hand(v, 3) == {"7C", "7D", "7H", "7S", "8C", "8D", "8H", "2C"}
    assert f["deck_count"] == 52 - 16 - 17


@pytest.mark.parametrize("bad, rule", [
    (take(2), "ER-3.0"),  # South before North: the picks start with the attacker
    ((0, "pass"), "ER-5.2"),  # pass is not a take
    (take(0, "KS"), "ER-5.2"),  # not among the laid-out cards
], ids=["south_before_north", "pass_is_not_a_take", "card_not_laid_out"])
def test_revised_elimination_picks_refuse_out_of_turn_passes_and_foreign_cards(bad, rule):
    """ER-6.4 / ER-5.2: one take each from the attacker clockwise, only of the laid-out cards."""
    v = verdict(er64(ER64_TO_ELIMINATION + [bad]))
    assert_illegal(v, 39, rule)


def test_revised_elimination_pick_may_not_go_above_16_cards():
    """ER-6.4 / ER-5.2: East (7 cards) may take 9 cards but not 10."""
    ten = ["2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S", "4C", "4D"]
    v = verdict(er64(ER64_TO_ELIMINATION + ER64_PICKS[:2] + [take(3, *ten)]))
    assert_illegal(v, 41, "ER-5.2")
    v = verdict(er64(ER64_TO_ELIMINATION + ER64_PICKS[:2] + [take(3, *ten[:9])]))
    assert_no_winner_yet(v, 42)
    assert len(v["final"]["hands"]["3"]) == 16


def test_revised_south_is_never_attacked_while_north_survives_and_east_substitutes_for_west():
    """ER-6.4: after West is out, East defends in West's place (ER-6.2) and South is never the defender."""
    doc = er64(ER64_TO_ELIMINATION + ER64_PICKS + ER64_AFTER)
    v = verdict(doc)
    assert_no_winner_yet(v, 74)
    before = [(0, 1, None), (2, 3, None)] * 3 + [(0, 1, None)]
    after = [(2, 3, None),  # B8: South's left is East
             (0, 3, 1),  # B9: North's left is West, out: East substitutes
             (2, 3, None),  # B10: after the substitute defended, South (next surviving after West, ER-6.3)
             (3, 0, None),  # B11: East beat, East attacks North (ER-3.10)
             (0, 3, 1),  # B12: North beat, North attacks: East substitutes again
             (2, 3, None)]  # B13: substitute conceded, South attacks (ER-6.3), not North (East's left)
    starts = battle_starts(doc)
    assert starts == before + after
    assert all(defender != 2 for _, defender, _ in starts)
    f = v["final"]
    assert f["eliminated"] == [1] and f["battles"] == 12 and f["battle_pile"] == []
    assert hand(v, 0) == {"KC", "TH", "JC", "JH"}
    assert hand(v, 2) == {"9H", "TC", "TD", "TS"}
    assert hand(v, 3) == {"7H", "7S", "8C", "8D", "8H", "2C", "6D"}
    assert f["hands"]["1"] == []
    assert f["discard_count"] == 17 + 6 and f["deck_count"] == 52 - 16 - 22


def test_revised_south_cannot_defend_when_north_attacks_after_west_is_out():
    """ER-6.4 / ER-6.2: North attacks the substitute East, never its partner South: South's concede is not its turn (ER-3.0)."""
    prefix = ER64_TO_ELIMINATION + ER64_PICKS + ER64_AFTER[:4] + [atk(0, "6C"), *ps(0, 2)]
    v = verdict(er64(prefix + [concede(2)]))
    assert_illegal(v, len(prefix), "ER-3.0")
    assert "seat 3" in v["illegal"]["reason"]


def test_revised_after_a_substitute_beat_the_next_attacker_follows_the_eliminated_seat():
    """ER-6.4 / ER-6.3: after East beat as West's substitute, South attacks, not East (ER-3.10 does not apply)."""
    prefix = ER64_TO_ELIMINATION + ER64_PICKS + ER64_AFTER[:12]
    v = verdict(er64(prefix + [atk(3, "7D")]))
    assert_illegal(v, len(prefix), "ER-3.0")
    assert "seat 2" in v["illegal"]["reason"]


def test_revised_after_a_substitute_conceded_the_next_attacker_follows_the_eliminated_seat():
    """ER-6.4 / ER-6.3: after East conceded as West's substitute, South attacks, not North (East's left)."""
    prefix = ER64_TO_ELIMINATION + ER64_PICKS + ER64_AFTER
    v = verdict(er64(prefix + [atk(0, "KC")]))
    assert_illegal(v, len(prefix), "ER-3.0")
    assert "seat 2" in v["illegal"]["reason"]


def test_revised_east_conceding_above_16_eliminates_the_last_of_east_west_and_north_south_win():
    """ER-5.1, ER-4.3 (and ER-4.2): East, West's last partner, concedes to 17 cards: North-South win by elimination, no picks."""
    nine = ["2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S", "4C"]
    moves = ER64_TO_ELIMINATION + [take(0, "6C", "6D"), take(2), take(3, *nine), atk(2, "9C"), *ps(0, 2), concede(3)]
    v = verdict(er64(moves))
    assert v["status"] == "finished" and v["result"] == "elimination"
    assert v["winner"] == {"seats": [0, 2], "team": "NS"}
    assert v["moves_applied"] == 46
    assert v["final"]["eliminated"] == [1, 3]
    assert len(v["final"]["hands"]["3"]) == 17  # laid out, never picked
    v = verdict(er64(moves + [take(0)]))
    assert v["illegal"]["rule"] == "ER-4.5" and v["result"] == "elimination"


# ---------------------------------------------------------------- ER-6.1 (revised, 3 players, individual)

# Seat 0 attacks seat 1 with three of a rank, seat 2 throws in the fourth, seat 1 concedes; seat 2 then attacks
# seat 0, which beats, so seat 0 attacks seat 1 again. Seat 1: 4 -> 8 -> 12 -> 16 -> 20: eliminated.
ER61_HANDS = [["2C", "2D", "2H", "9C"], ["6C", "6D", "6H", "6S"], ["2S", "3S", "4S", "5S"]]
ER61_DRAWS = ["3C", "3D", "3H", "7C",  # B1: seat 0 three, seat 2 one
              "7D", "9D",  # B2 (a beat): attacker 2, then defender 0
              "4C", "4D", "4H", "7H",  # B3
              "8C", "9H",  # B4
              "5C", "5D", "5H", "8D",  # B5
              "8H", "KC",  # B6
              "TC", "TD", "TH",  # after the picks: seat 0 two, seat 2 one
              "TS", "JC", "JD"]  # B8 seat 2, B9 seat 2, B10 seat 0


def _0_attacks_1(r: str) -> list:
    return [atk(0, r + "C", r + "D", r + "H"), thr(2, r + "S"), *ps(0, 2), concede(1)]


def _2_attacks_0(card: str, beater: str) -> list:
    return [atk(2, card), *ps(1, 2), beat(0, beater), *ps(1, 2), *ps(2, 1)]


ER61_MOVES = (_0_attacks_1("2") + _2_attacks_0("7C", "9C") + _0_attacks_1("3") + _2_attacks_0("7D", "9D")
              + _0_attacks_1("4") + _2_attacks_0("7H", "9H") + _0_attacks_1("5")  # 44 moves: seat 1 out
              + [take(0, "6C"), take(2)]
              + [atk(2, "8C"), *ps(2), concede(0)]  # B8: seat 1 is never offered; 0's left is out: 2 attacks again
              + [atk(2, "8D"), *ps(2), beat(0, "8C"), *ps(2), *ps(2)]  # B9: 0 beats, so 0 attacks next
              + [atk(0, "6C"), *ps(0), concede(2)])  # B10: 0 attacks 2, skipping the eliminated seat 1


def test_revised_individual_eliminated_player_is_skipped_as_defender_and_in_every_window():
    """ER-6.1: after seat 1 is eliminated, seat 0 attacks seat 2 and seat 1 is never offered anything."""
    doc = record(ER61_HANDS, ER61_MOVES, edition="revised", deck_top=ER61_DRAWS)
    v = verdict(doc)
    assert_no_winner_yet(v, 57)
    starts = battle_starts(doc)
    assert starts == [(0, 1, None), (2, 0, None)] * 3 + [(0, 1, None), (2, 0, None), (2, 0, None), (0, 2, None),
                                                          (0, 2, None)]
    f = v["final"]
    assert f["eliminated"] == [1] and f["hands"]["1"] == [] and f["battles"] == 10
    assert hand(v, 0) == {"KC", "TC", "TD", "JD"}
    assert hand(v, 2) == {"8H", "TH", "TS", "JC", "6C"}
    assert f["discard_count"] == 6 + 19 + 2 and f["deck_count"] == 52 - 12 - 24


def test_revised_individual_eliminated_player_is_not_offered_the_join_window():
    """ER-6.1: in the first join window after the elimination seat 2 is offered, not the eliminated seat 1 (ER-3.0)."""
    prefix = ER61_MOVES[:47]
    v = verdict(record(ER61_HANDS, prefix + ps(1), edition="revised", deck_top=ER61_DRAWS))
    assert_illegal(v, 47, "ER-3.0")
    assert "seat 2" in v["illegal"]["reason"]
