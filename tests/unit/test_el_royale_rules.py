"""El Royale clauses one by one, on stacked decks: windows, claims, replenishing, reshuffles, limits."""

from __future__ import annotations

import pytest

from domain.cards import format_cards
from domain.records import parse, replay
from tests.support import record, verdict

HANDS3 = [["5C", "9C", "JC", "KC"], ["5D", "7D", "QD", "2S"], ["5H", "8H", "3S", "4S"]]


def after(doc: dict):
    """The replay of a record (state, events) — for looking at who is to act."""
    return replay(parse(doc), keep_events=True)


def test_the_deal_goes_one_card_at_a_time_clockwise_beginning_with_the_dealer():
    """ER-2.1: with dealer 1 of 3 and an unshuffled deck, seat 1 gets cards 0, 3, 6, 9."""
    from domain.cards import PACK

    doc = record(HANDS3, [], dealer=0)
    doc["deck"], doc["dealer"] = format_cards(PACK), 1
    hands = verdict(doc)["final"]["hands"]
    assert hands == {"1": ["AC", "4C", "7C", "TC"], "2": ["2C", "5C", "8C", "JC"], "0": ["3C", "6C", "9C", "QC"]}


def test_join_offers_start_at_the_defenders_left_and_include_the_attacker():
    """ER-3.2: seat 0 attacks seat 1; seat 2 is offered first, then the attacker, then the defence."""
    r = after(record(HANDS3, [(0, "attack", ["5C"])]))
    assert r.state.to_act == 2 and r.state.phase == "join"
    r = after(record(HANDS3, [(0, "attack", ["5C"]), (2, "pass")]))
    assert r.state.to_act == 0
    r = after(record(HANDS3, [(0, "attack", ["5C"]), (2, "pass"), (0, "pass")]))
    assert (r.state.phase, r.state.to_act) == ("defence", 1)


def test_a_throw_in_wipes_the_passes_and_the_window_goes_round_again():
    """ER-3.3 R: after a throw-in every eligible seat must pass again, the thrower included."""
    hands = [["5C", "9C", "JC", "KC"], ["5D", "7D", "QD", "2S"], ["8H", "3S", "4S", "6S"], ["5H", "AH", "2H", "3H"]]
    moves = [(0, "attack", ["5C"]), (2, "pass"), (3, "throw_in", ["5H"]), (0, "pass"), (2, "pass")]
    r = after(record(hands, moves))
    assert (r.state.phase, r.state.to_act) == ("join", 3)  # the thrower is asked again
    r = after(record(hands, moves + [(3, "pass")]))
    assert (r.state.phase, r.state.to_act) == ("defence", 1)


def test_a_seat_without_a_card_of_the_rank_is_still_offered():
    """ER-3.3 R: offers never depend on a hand; seat 2 holds no five and must still pass."""
    v = verdict(record(HANDS3, [(0, "attack", ["9C"]), (0, "pass")]))
    assert v["illegal"]["rule"] == "ER-3.0" and "seat 2" in v["illegal"]["reason"]


def test_a_throw_in_must_be_of_the_rank_the_window_asks_for():
    """ER-3.7: in the join window only the attack's rank may be thrown in."""
    v = verdict(record(HANDS3, [(0, "attack", ["5C"]), (2, "throw_in", ["8H"])]))
    assert v["illegal"]["rule"] == "ER-3.7"


def test_an_attack_of_mixed_ranks_is_illegal():
    """ER-3.1: one card, or any number of cards of one rank."""
    v = verdict(record(HANDS3, [(0, "attack", ["5C", "9C"])]))
    assert v["illegal"]["rule"] == "ER-3.1"


@pytest.mark.parametrize("cards,rule", [([], "ER-3.1"), (["5C", "5C"], "ER-3.1"), (["5D"], "ER-3.1")])
def test_card_errors_cite_the_clause_of_the_play(cards, rule):
    """ER-3.12: an empty play, a card named twice or a card not held cite the play's clause."""
    v = verdict(record(HANDS3, [(0, "attack", cards)]))
    assert v["illegal"]["rule"] == rule and v["moves_applied"] == 0


def test_a_move_type_the_phase_does_not_allow_cites_the_phase_clause():
    """ER-3.12: the defender may not pass (ER-3.4); the attacker may not pass an attack (ER-3.1)."""
    assert verdict(record(HANDS3, [(0, "pass")]))["illegal"]["rule"] == "ER-3.1"
    v = verdict(record(HANDS3, [(0, "attack", ["5C"]), (2, "pass"), (0, "pass"), (1, "pass")]))
    assert v["illegal"]["rule"] == "ER-3.4" and v["illegal"]["reason"] == "pass is not allowed now: beat or concede expected"


def test_the_turn_check_comes_before_the_move_type_check():
    """ER-3.12 order: a seat out of turn gets ER-3.0 even for a move its phase would not allow."""
    v = verdict(record(HANDS3, [(2, "concede")]))
    assert v["illegal"]["rule"] == "ER-3.0"


REINFORCE = [["5C", "9C", "JC", "KC"], ["7D", "6C", "QD", "2S"], ["6H", "8H", "3S", "4S"]]
BEAT = [(0, "attack", ["5C"]), (2, "pass"), (0, "pass"), (1, "beat", ["6C"])]


def test_revised_reinforce_offers_start_at_the_defenders_left_without_the_defender():
    """ER-3.6 revised: the defender is not offered until someone else adds a card."""
    r = after(record(REINFORCE, BEAT))
    assert (r.state.phase, r.state.to_act) == ("reinforce", 2)
    r = after(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass")]))
    assert r.state.phase == "claim"


def test_revised_defender_is_offered_again_after_another_player_adds():
    """ER-3.6 revised: a throw-in by another player makes the defender eligible again."""
    r = after(record(REINFORCE, BEAT + [(2, "throw_in", ["6H"]), (0, "pass")]))
    assert (r.state.phase, r.state.to_act) == ("reinforce", 1)


def test_classic_reinforce_offers_start_with_the_defender():
    """ER-3.6 classic: every player may throw in, offers start with the defender."""
    r = after(record(REINFORCE, BEAT, edition="classic"))
    assert (r.state.phase, r.state.to_act) == ("reinforce", 1)


def test_revised_claim_excludes_the_player_of_the_most_recent_card():
    """ER-3.8 revised: the defender who beat last may not claim; offers go attacker first, clockwise."""
    r = after(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass")]))
    assert r.state.queue == (0, 2)
    v = verdict(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (1, "claim")]))
    assert v["illegal"]["rule"] == "ER-3.0"


def test_classic_claim_excludes_the_defender_unless_another_player_reinforced():
    """ER-3.8 classic: the defender may claim only if someone else added a card after the beat."""
    quiet = after(record(REINFORCE, BEAT + [(1, "pass"), (2, "pass"), (0, "pass")], edition="classic"))
    assert quiet.state.queue == (0, 2)
    reinforced = after(record(REINFORCE, BEAT + [(1, "pass"), (2, "throw_in", ["6H"]), (0, "pass"), (1, "pass"), (2, "pass")],
                              edition="classic"))
    assert reinforced.state.queue == (0, 1, 2)  # classic does not exclude the player of the last card


def test_an_unclaimed_pile_goes_to_the_discard_and_the_defender_attacks_next():
    """ER-3.8 and ER-3.10: nobody claims, the pile is discarded, the defender attacks the next battle."""
    v = verdict(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (2, "pass")]))
    assert v["final"]["discard_count"] == 2 and v["final"]["battle_pile"] == [] and v["final"]["battles"] == 1
    r = after(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (2, "pass")]))
    assert (r.state.attacker, r.state.defender) == (1, 2)


def test_replenishing_after_a_beat_goes_attacker_defender_then_clockwise():
    """ER-3.9: after a beat the attacker draws first, then the defender, then the others."""
    r = after(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (2, "pass")]))
    draws = [e["seat"] for e in r.events if e["type"] == "drew"]
    assert draws == [0, 1]


def test_replenishing_after_a_concession_goes_attacker_then_clockwise_and_left_of_defender_attacks():
    """ER-3.9 and ER-3.10: after a concession the attacker draws first; the defender's left attacks next."""
    hands = [["5C", "5D", "JC", "KC"], ["7D", "6C", "QD", "2S"], ["6H", "8H", "3S", "4S"]]
    moves = [(0, "attack", ["5C", "5D"]), (2, "pass"), (0, "pass"), (1, "concede")]
    r = after(record(hands, moves))
    assert [e["seat"] for e in r.events if e["type"] == "drew"] == [0, 0]
    assert (r.state.attacker, r.state.defender) == (2, 0)


def test_the_discard_is_reshuffled_only_when_a_card_must_be_drawn():
    """ER-2.3 R: an emptied deck stays empty until a card is needed; then the discard becomes the deck."""
    from domain import el_royale as er
    from domain.randomness import Chance

    doc = record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (2, "pass")])
    rec = parse(doc)
    state = replay(rec).state
    # empty the deck by hand: move every deck card to the discard pile, then force a draw
    state = state.clone()
    state.discard |= sum(1 << c for c in state.deck[state.deck_pos:])
    state.deck_pos = len(state.deck)
    events, new = er.step(state, {"seat": 1, "type": "attack", "cards": [state_card(state, 1)]}, Chance("00ff"))
    assert new.hands[1].bit_count() == 3
    assert not any(e["type"] == "reshuffled" for e in events)  # nobody needs a card yet
    assert new.deck_count == 0


def state_card(state, seat):
    from domain.cards import cards_of

    return cards_of(state.hands[seat])[0]


def _claim_window_with_an_empty_deck():
    """The REINFORCE game at its last claim offer, with every deck card moved to the discard pile."""
    state = replay(parse(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass")]))).state.clone()
    state.discard |= sum(1 << c for c in state.deck[state.deck_pos:])
    state.deck_pos = len(state.deck)
    return state


def test_a_reshuffle_puts_the_discard_in_pack_order_then_shuffles_it_with_the_next_label():
    """ER-2.3 and contract §4: label reshuffle:1, discard in unshuffled-pack order, drawn from index 0."""
    from domain import el_royale as er
    from domain.cards import cards_of
    from domain.randomness import Chance, shuffle

    state = _claim_window_with_an_empty_deck()
    events, new = er.step(state, {"seat": 2, "type": "pass"}, Chance("00ff"))
    reshuffles = [e for e in events if e["type"] == "reshuffled"]
    discard = cards_of(state.discard | state.pile_mask)
    assert len(reshuffles) == 1 and reshuffles[0]["k"] == 1
    assert reshuffles[0]["order"] == shuffle("00ff", "reshuffle:1", discard)
    assert [e["card"] for e in events if e["type"] == "drew"] == reshuffles[0]["order"][:2]


def test_a_recorded_reshuffle_that_is_not_the_discard_pile_makes_the_move_illegal():
    """ER-2.3 with contract §2 outcomes: a wrong reshuffle outcome makes the triggering move illegal."""
    from domain import el_royale as er
    from domain.randomness import Chance
    from domain.rules import RuleViolation

    state = _claim_window_with_an_empty_deck()
    with pytest.raises(RuleViolation) as err:
        er.step(state, {"seat": 2, "type": "pass"}, Chance("00ff", {"reshuffle:1": [0, 1, 2]}))
    assert err.value.clause == "ER-2.3"


def test_a_battle_limit_draws_the_game_when_that_many_battles_ended():
    """ER-4.4 R: with battle_limit 1 the game ends drawn when the first battle ends."""
    v = verdict(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (2, "pass")], options={"battle_limit": 1}))
    assert (v["status"], v["result"], v["winner"], v["final"]["battles"]) == ("finished", "draw", None, 1)
    assert v["final"]["hands"]["0"] == ["9C", "JC", "KC"]  # no replenishing after the draw


def test_no_move_is_accepted_after_the_game_ends():
    """ER-4.5: a finished game accepts no further moves, not even table talk."""
    v = verdict(record(REINFORCE, BEAT + [(2, "pass"), (0, "pass"), (0, "pass"), (2, "pass"),
                                          {"seat": 0, "type": "say", "text": "again?"}], options={"battle_limit": 1}))
    assert v["illegal"]["rule"] == "ER-4.5" and v["result"] == "draw"


def test_shown_cards_stay_shown_until_they_leave_the_hand():
    """ER-7.2: a shown card is visible to all while held; playing it ends that."""
    r = after(record(HANDS3, [{"seat": 0, "type": "show", "cards": ["5C", "KC"]}, (0, "attack", ["5C"])]))
    assert format_cards([c for c in range(52) if r.state.shown[0] >> c & 1]) == ["KC"]


def test_a_show_must_name_held_cards_once_each():
    """ER-7.2: a show names at least one card, each held, none twice."""
    for cards in ([], ["5D"], ["5C", "5C"]):
        v = verdict(record(HANDS3, [{"seat": 0, "type": "show", "cards": cards}]))
        assert v["illegal"]["rule"] == "ER-7.2"


def test_an_attacker_holding_no_cards_is_skipped():
    """ER-3.1 R: the next surviving player who holds cards attacks instead, and the defender follows from them."""
    from domain.el_royale import clauses

    state = replay(parse(record(HANDS3, []))).state.clone()
    state.hands = (0,) + state.hands[1:]
    assert clauses.first_holding_cards(state, 0) == 1
    assert clauses.defender_for(state, 1) == (2, None)


def test_emptying_the_hand_without_the_fourth_card_of_the_rank_does_not_win():
    """ER-4.1 needs both: the play completes its rank in the battle pile AND empties the hand.

    A mutant engine that lets a player win by emptying their hand alone used to pass every test."""
    from domain.cards import parse_card
    from domain.el_royale import step
    from domain.randomness import Chance

    r = after(record(HANDS3, []))
    state = r.state.clone()
    assert (state.phase, state.to_act) == ("attack", 0)
    state.hands = (1 << parse_card("5C"), state.hands[1], state.hands[2])  # seat 0 holds one card
    events, after_attack = step(state, {"seat": 0, "type": "attack", "cards": [parse_card("5C")]}, Chance("00ff"))
    assert after_attack.hands[0] == 0  # the hand is empty ...
    assert not any(e["type"] == "won" for e in events) and after_attack.outcome is None  # ... but 5C is the first five


def test_completing_the_rank_with_the_last_card_in_hand_wins_at_once():
    """ER-4.1: the fourth card of its rank, played from a hand it empties, wins at once."""
    from domain.cards import parse_card
    from domain.el_royale import step
    from domain.randomness import Chance

    r = after(record(HANDS3, []))
    state = r.state.clone()
    state.hands = (sum(1 << parse_card(c) for c in ("9C", "9D", "9H", "9S")), state.hands[1], state.hands[2])
    events, won = step(state, {"seat": 0, "type": "attack", "cards": [parse_card(c) for c in ("9C", "9D", "9H", "9S")]},
                       Chance("00ff"))
    assert events[-1]["type"] == "won" and won.outcome.seats == (0,)
