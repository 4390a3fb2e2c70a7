"""El Royale's clauses as named predicates: over a state (who may act, who defends, who attacks next, how many cards
a seat may take) and over cards (one rank, what may be thrown in, what beats the top card).

Each function cites the clause it implements. They read the state and never change it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import SAME_RANK, rank_of, suit_of
from .setup import MAX_HOLDING

if TYPE_CHECKING:  # pragma: no cover
    from .state import State


def clockwise_from(s: "State", seat: int) -> tuple[int, ...]:
    """Every seat, starting at `seat` and going clockwise (ER-1.1); a table's tuples, made once a size (_FROM)."""
    return _FROM[s.n][seat]


def next_surviving(s: "State", seat: int) -> int:
    """The next seat clockwise after `seat` that is not eliminated (ER-6.1)."""
    n = s.n
    for k in range(1, n + 1):
        nxt = (seat + k) % n
        if not (s.eliminated >> nxt) & 1:
            return nxt
    return seat


def are_partners(s: "State", a: int, b: int) -> bool:
    """Whether two seats play in the same team (ER-1.2)."""
    team_of = s.setup.team_of
    return team_of is not None and team_of[a] == team_of[b]


def window_eligible_mask(s: "State") -> int:
    """Who is offered in a window (ER-3.2, ER-3.6, ER-3.3 R), as a seat mask: from role and elimination, never from the hand."""
    surviving = ((1 << s.n) - 1) & ~s.eliminated
    if s.phase == "join" or (s.revised and not s.added_since_defender):
        return surviving & ~(1 << s.defender)  # ER-3.2 / ER-3.6 revised: the defender is not offered
    return surviving  # ER-3.6 classic, or revised after another player added a card


def window_closed(s: "State") -> bool:
    """ER-3.3 R: a window closes once every eligible seat has passed since the most recent card."""
    return not window_eligible_mask(s) & ~s.passed


def next_eligible(s: "State", answered: int) -> int | None:
    """ER-3.3 R: the next eligible seat clockwise from the seat that answered (itself last)."""
    eligible = window_eligible_mask(s)
    for seat in _AFTER[s.n][answered]:
        if (eligible >> seat) & 1:
            return seat
    return None


def next_to_offer(s: "State", answered: int) -> int | None:
    """ER-3.3 R after an answer in a window: None when the window closes (window_closed), else the next eligible seat
    (next_eligible), from one reading of who is eligible."""
    eligible = window_eligible_mask(s)
    if not eligible & ~s.passed:
        return None
    for seat in _AFTER[s.n][answered]:
        if (eligible >> seat) & 1:
            return seat
    return None


def _clockwise(start: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """table[n][seat]: the seats clockwise from `seat` at a table of n (2 to 8 players, ER-1.1), beginning `start`
    seats on. Tuples indexed by n rather than a dict: each pass in a window reads one."""
    return tuple(tuple(tuple((seat + k) % n for k in range(start, start + n)) for seat in range(n)) for n in range(9))


_FROM, _AFTER = _clockwise(0), _clockwise(1)  # from `seat` itself; from its left, `seat` itself last


def may_claim(s: "State", seat: int) -> bool:
    """ER-3.8: who is eligible to claim the battle pile, by edition."""
    if (s.eliminated >> seat) & 1:
        return False
    if s.revised:
        return seat != s.last_player
    return seat != s.defender or s.added_after_beat


def one_rank(cards: list[int]) -> bool:
    """ER-3.1, ER-3.4 R, ER-3.7: the cards all have one rank (one card always does)."""
    if len(cards) == 1:
        return True
    same = SAME_RANK[cards[0]]
    for c in cards:
        if not same >> c & 1:
            return False
    return True


def may_throw_in(cards: list[int], top: int) -> bool:
    """ER-3.7: cards of one rank, the top card's."""
    return rank_of(cards[0]) == rank_of(top) and one_rank(cards)


def can_beat_classic(card: int, top: int) -> bool:
    """ER-3.4 classic: same rank as the top card, or same suit and higher."""
    return rank_of(card) == rank_of(top) or (suit_of(card) == suit_of(top) and rank_of(card) > rank_of(top))


def can_beat_revised(cards: list[int], top: int) -> bool:
    """ER-3.4 revised: cards of one rank R, R equal to the top's rank, or higher with one card of the top's suit."""
    rank, top_rank = rank_of(cards[0]), rank_of(top)
    if rank == top_rank:
        return True
    if rank < top_rank:
        return False
    suit = suit_of(top)
    for c in cards:  # a loop, not any(): listing the beats asks this of every set of a rank
        if suit_of(c) == suit:
            return True
    return False


def take_room(s: "State", seat: int) -> int:
    """ER-5.2: how many laid-out cards `seat` may still take without going above 16 cards in hand."""
    return max(0, MAX_HOLDING - s.hands[seat].bit_count())


def claim_queue(s: "State") -> tuple[int, ...]:
    """ER-3.8: the eligible seats in priority order, the attacker first, then clockwise."""
    return tuple([seat for seat in clockwise_from(s, s.attacker) if may_claim(s, seat)])


def defender_for(s: "State", attacker: int) -> tuple[int, int | None]:
    """ER-3, ER-6.1, ER-6.2: the defender against an attacker, and the eliminated seat it substitutes for."""
    if s.setup.team_of is None:
        return next_surviving(s, attacker), None
    left = (attacker + 1) % s.n
    if s.surviving(left):
        return left, None
    for seat in clockwise_from(s, left)[1:]:
        if s.surviving(seat) and are_partners(s, seat, left):
            return seat, left
    for seat in clockwise_from(s, left)[1:]:  # ER-6.2 R: the left seat's whole team is out
        if s.surviving(seat) and not are_partners(s, seat, attacker) and seat != attacker:
            return seat, None
    raise AssertionError("no defender: the game should have ended by elimination (ER-4.3)")


def next_attacker(s: "State") -> int:
    """ER-3.10, ER-6.3 and ER-3.1 R: who attacks in the next battle."""
    if s.substitute_for is not None:
        seat = next_surviving(s, s.substitute_for)  # ER-6.3
    elif s.ended_by == "beat":
        seat = s.defender  # ER-3.10: the defender attacks next
    else:
        seat = next_surviving(s, s.defender)  # ER-3.10: the player to the defender's left
    return first_holding_cards(s, seat)


def first_holding_cards(s: "State", seat: int) -> int:
    """ER-3.1 R: an attacker holding no cards is skipped for the next surviving player who holds some."""
    hands, eliminated = s.hands, s.eliminated
    for cand in clockwise_from(s, seat):
        if hands[cand] and not (eliminated >> cand) & 1:
            return cand
    return seat


def replenish_order(s: "State") -> list[int]:
    """ER-3.9: who draws in which order after a beat or a concession (eliminated seats skipped)."""
    if s.ended_by == "beat":
        first = (s.attacker, s.defender)
        rest = _AFTER[s.n][s.defender]  # clockwise from the defender's left
    else:
        first = (s.attacker,)
        rest = _AFTER[s.n][s.attacker]  # clockwise from the attacker's left
    eliminated = s.eliminated
    order = [seat for seat in first if not (eliminated >> seat) & 1]
    order += [seat for seat in rest if seat not in first and not (eliminated >> seat) & 1]
    return order


def sides_left(s: "State") -> set[int]:
    """ER-4.3: the players (individual) or teams still in the game."""
    team_of = s.setup.team_of
    return {seat if team_of is None else team_of[seat] for seat in range(s.n) if s.surviving(seat)}


def winners(s: "State", seat: int) -> tuple[tuple[int, ...], str | None]:
    """ER-4.2: the winning seats and team name when `seat` wins (a team wins whole, eliminated members too)."""
    setup = s.setup
    if setup.team_of is None:
        return (seat,), None
    team = setup.team_of[seat]
    return tuple(x for x in range(s.n) if setup.team_of[x] == team), setup.team_names[team]
