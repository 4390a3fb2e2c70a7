"""Card notation of contract §1 and ER-1.4: parsing and formatting card strings."""

from __future__ import annotations

import random

import pytest

from domain.cards import (PACK, RANK_MASKS, SAME_RANK, CardError, format_card, format_cards, parse_card, parse_cards,
                          rank_bits, rank_of)

ALL_NAMES = [r + s for s in "CDHS" for r in "A23456789TJQK"]


def test_ten_of_diamonds_parses_from_t_notation():
    """TD is the ten of diamonds: suit D (index 1) times 13 plus rank T (index 9)."""
    assert parse_card("TD") == 1 * 13 + 9


def test_ten_accepted_as_10_on_input():
    """10D is accepted on input and names the same card as TD."""
    assert parse_card("10D") == parse_card("TD")


@pytest.mark.parametrize("text, canonical", [("td", "TD"), ("10d", "TD"), ("as", "AS"), ("kH", "KH"), ("Qc", "QC")])
def test_lower_and_mixed_case_accepted(text, canonical):
    """Input in lower or mixed case names the same card as the canonical upper-case string."""
    assert parse_card(text) == parse_card(canonical)


def test_ten_is_formatted_as_t():
    """Output uses T for ten, never 10 (ER-1.4)."""
    assert format_card(parse_card("10S")) == "TS"


def test_unshuffled_pack_order_is_clubs_diamonds_hearts_spades_ace_to_king():
    """Card ints are indexes into the unshuffled pack AC 2C .. KC AD .. KS (contract §4)."""
    assert format_cards(PACK) == ALL_NAMES


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_card_round_trips(name):
    """Each of the 52 canonical names parses to a card that formats back to the same name."""
    card = parse_card(name)
    assert 0 <= card < 52
    assert format_card(card) == name
    assert format_card(parse_card(name.lower())) == name


def test_the_52_names_parse_to_52_distinct_cards():
    """No two card names collide: all 52 parse to distinct ints 0..51."""
    assert sorted(parse_card(n) for n in ALL_NAMES) == list(range(52))


def test_parse_cards_parses_a_list_in_order():
    """parse_cards keeps the order given."""
    assert format_cards(parse_cards(["KS", "10h", "ac"])) == ["KS", "TH", "AC"]


@pytest.mark.parametrize("bad", ["1C", "ZZ", "", "10", "TDX", "T", "D", "CT", "11C", "0D", "AX", "10DD", "T D"])
def test_bad_strings_raise_card_error_naming_the_string(bad):
    """A string that is not a card raises CardError whose message quotes the bad string."""
    with pytest.raises(CardError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("bad", [None, 7, 7.0, ["TD"], b"TD", True])
def test_non_strings_raise_card_error_naming_the_value(bad):
    """A value that is not a string at all raises CardError (not TypeError) naming the value."""
    with pytest.raises(CardError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)


def test_card_error_is_a_value_error():
    """CardError is a ValueError, so generic callers can catch it as bad input."""
    assert issubclass(CardError, ValueError)


def test_parse_cards_stops_at_the_first_bad_string():
    """parse_cards raises CardError naming the first bad string of the list."""
    with pytest.raises(CardError) as info:
        parse_cards(["AC", "ZZ", "1C"])
    assert "'ZZ'" in str(info.value)


def test_non_ascii_suit_letter_is_not_a_card():
    """Only the ASCII letters of §1 name suits: 'Aſ' (long s, U+017F) is not the ace of spades."""
    with pytest.raises(CardError):
        parse_card("A\u017f")


@pytest.mark.parametrize("text", [" TD", "TD\n", "t d"])
def test_surrounding_or_inner_whitespace_is_not_a_card(text):
    """Contract §1: a card is exactly a rank and a suit; whitespace is a malformed card, not silently trimmed."""
    with pytest.raises(CardError, match="is not a card"):
        parse_card(text)


def test_the_spelling_table_answers_as_the_notation_does():
    """parse_card reads accepted spellings from a table: every string of up to three printable ASCII characters
    (and a few others) parses, or is refused, exactly as the notation's own parser says."""
    import itertools
    import string

    from domain import cards

    def slow(text):
        try:
            return cards._parse_card(text)
        except CardError as e:
            return str(e)

    def fast(text):
        try:
            return parse_card(text)
        except CardError as e:
            return str(e)

    alphabet = string.printable
    texts = ["", "\u0131s", "TD\x00", "ＴD", 12, None, ["TD"], b"TD", 1.5]
    texts += ["".join(t) for size in (1, 2) for t in itertools.product(alphabet, repeat=size)]
    texts += ["1" + "".join(t) for t in itertools.product(alphabet, repeat=2)]
    texts += ["".join(t) for t in itertools.product("A23456789TJQKatjqk0CDHScdhs", repeat=3)]
    assert [fast(t) for t in texts] == [slow(t) for t in texts]
    assert len(cards._SPELLINGS) == 19 * 8


def test_same_rank_is_the_mask_of_every_card_of_the_card_s_rank():
    """SAME_RANK[c] holds the four cards of c's rank: 7C's is 7C 7D 7H 7S."""
    assert SAME_RANK[parse_card("7C")] == sum(1 << parse_card(n) for n in ("7C", "7D", "7H", "7S"))
    assert all(SAME_RANK[c] == RANK_MASKS[rank_of(c)] for c in PACK)


def test_rank_bits_has_a_bit_for_each_rank_a_mask_holds_a_card_of():
    """rank_bits folds the four suits: bit r is set exactly when some card of rank r is in the mask."""
    assert rank_bits(0) == 0
    assert rank_bits(1 << parse_card("KS")) == 1 << 12
    assert rank_bits(sum(1 << parse_card(n) for n in ("AC", "AH", "TD", "KS"))) == 1 | 1 << 9 | 1 << 12
    rng = random.Random(7)
    for _ in range(200):
        mask = sum(1 << c for c in rng.sample(PACK, rng.randrange(53)))
        assert rank_bits(mask) == sum(1 << r for r in range(13) if mask & RANK_MASKS[r])
