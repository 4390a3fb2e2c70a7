"""El Royale's verdict-only replay loop: `fold_moves`, the ordinary moves of a record folded without events.

Replay (domain/records.py) needs the state after the moves and the first illegal move, not the events. This loop
keeps the state's fields in local variables (hands as a list, the window's eligible seats as a mask, the next seat
to offer from a table) and applies each move it can prove legal and ordinary directly: attacks, throw-ins, beats,
passes, concessions and claims, the window closing, the battle's end, the draws and the next battle.

It is a second implementation of ER-3, written apart from decider.py and clauses.py (it calls none of their
predicates) so that the two can be held to each other: tests/unit/test_el_royale_fast_replay.py replays random
games with random wrong moves of every kind both ways and asks for the same states and verdicts.

It stops, leaving the state exactly as the decider would have it before that move, at the first move it cannot
prove legal or that needs anything unusual: a say or a show, a move out of turn or of the wrong type, a card not
held or named twice, a play the rank rules refuse, a take, the game over, a play that wins (ER-4.1), a concession
that eliminates (ER-5.1), a battle limit reached (ER-4.4), a draw that needs a reshuffle (ER-2.3), a table with no
defender. The caller hands that move to the decider (fold_step), which raises the clause and reason or applies it,
and calls this loop again for the moves after it.
"""

from __future__ import annotations

from ..cards import RANK_MASKS
from .setup import HAND_SIZE, MAX_HOLDING
from .state import ATTACK, CLAIM, DEFENCE, JOIN, REINFORCE, State

# The set-ups this loop was written for (domain.spec.FastReplay): both editions, any battle limit (ER-4.4, handed to
# the decider when reached), with or without auto_pass (the service's, never read here); teams and 2 to 8 seats.
# A game with any other option takes the decider alone.
WRITTEN_FOR = {"edition": ("revised", "classic"), "battle_limit": None, "auto_pass": (False, True)}

_RANK = tuple(c % 13 for c in range(52))  # contract §4's coding: rank = card % 13, suit = card // 13
_SUIT_MASK = tuple(((1 << 13) - 1) << (13 * suit) for suit in range(4))
_SUIT_MASK_OF = tuple(_SUIT_MASK[c // 13] for c in range(52))


class _Table:
    """The seats of a table of n, made once a size: after[seat] (clockwise after it, itself last), from_[seat]
    (clockwise from it, itself first), and offer[eligible][seat] (the first eligible seat after `seat`, or -1)."""

    _made: dict[int, "_Table"] = {}

    def __init__(self, n: int):
        self.after = tuple(tuple((seat + k) % n for k in range(1, n + 1)) for seat in range(n))
        self.from_ = tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n))
        self.offer = tuple(tuple(next((x for x in self.after[seat] if eligible >> x & 1), -1) for seat in range(n))
                           for eligible in range(1 << n))

    @classmethod
    def of(cls, n: int) -> "_Table":
        table = cls._made.get(n)
        if table is None:
            table = cls._made[n] = cls(n)
        return table


def fold_moves(state: State, moves: list[dict], start: int, chance=None) -> tuple[State, int]:
    """Apply moves[start:] to `state` in place while each is legal and ordinary; (state, index of the first move
    not applied: len(moves) when all were). Never raises: a move it does not apply is left to the decider, with the
    state as the decider's own steps would have it before that move. `chance` is not drawn on (no reshuffle here)."""
    s = state
    end = len(moves)
    if s.outcome is not None or start >= end:
        return s, start
    n, revised = s.n, s.revised
    table = _Table.of(n)
    after, from_, offer = table.after, table.from_, table.offer
    hands, shown = list(s.hands), list(s.shown)
    any_shown = any(shown)  # no show is applied here, so only a shown card played can change `shown`
    pile, pile_mask = list(s.pile), s.pile_mask
    phase, to_act, passed, queue = s.phase, s.to_act, s.passed, s.queue
    attacker, defender, last_player = s.attacker, s.defender, s.last_player
    added_since_defender, added_after_beat = s.added_since_defender, s.added_after_beat
    surviving = ((1 << n) - 1) & ~s.eliminated  # no elimination happens here
    # who the open window offers (ER-3.2, ER-3.6), kept up to date as windows open and cards are added
    if defender is None:
        eligible = 0
    elif phase == JOIN or (revised and not added_since_defender):
        eligible = surviving & ~(1 << defender)
    else:
        eligible = surviving
    i = start
    while i < end:
        move = moves[i]
        if move["seat"] != to_act:
            break
        seat = to_act
        kind = move["type"]
        if kind == "pass":
            if phase == JOIN or phase == REINFORCE:
                new_passed = passed | 1 << seat
                if eligible & ~new_passed:  # ER-3.3: the next eligible seat clockwise is offered
                    passed, to_act = new_passed, offer[eligible][seat]
                    i += 1
                    continue
                if phase == JOIN:  # everyone offered has passed: the defence (ER-3.2)
                    passed, phase, to_act = new_passed, DEFENCE, defender
                    i += 1
                    continue
                claimants = _claimants(from_[attacker], defender, last_player, surviving, revised, added_after_beat)
                if claimants:  # ER-3.8: the claims, the attacker first
                    passed, phase, queue, to_act = new_passed, CLAIM, claimants, claimants[0]
                    i += 1
                    continue
                taker, how = None, "beat"  # nobody may claim: the pile is discarded
            elif phase == CLAIM:
                if len(queue) > 1:
                    queue = queue[1:]
                    to_act = queue[0]
                    i += 1
                    continue
                taker, how = None, "beat"  # the last offer declined: the pile is discarded
            else:
                break
        elif kind == "concede":
            if phase != DEFENCE:
                break
            taker, how = seat, "concede"
        elif kind == "claim":
            if phase != CLAIM:
                break
            taker, how = seat, "beat"
        elif kind == "attack" or kind == "throw_in" or kind == "beat":
            cards = move["cards"]
            if not cards:
                break
            hand = hands[seat]
            mask = 0
            for c in cards:
                bit = 1 << c
                if mask & bit:
                    break
                mask |= bit
            else:
                bit = 0
            if bit or mask & ~hand:
                break  # a card named twice, or one not held
            rank = _RANK[cards[0]]
            one_rank = RANK_MASKS[rank]
            if mask & ~one_rank:
                break  # cards of two ranks: never an attack, a throw-in or a beat of either edition
            if kind == "attack":
                if phase != ATTACK:
                    break
            elif kind == "throw_in":
                if (phase != JOIN and phase != REINFORCE) or _RANK[pile[-1]] != rank:
                    break
            else:
                if phase != DEFENCE:
                    break
                top = pile[-1]
                top_rank = _RANK[top]
                if rank != top_rank and not (rank > top_rank and mask & _SUIT_MASK_OF[top]):
                    break  # neither the top's rank nor higher with a card of its suit
                if not revised and len(cards) != 1:
                    break  # classic: one card
            left = hand & ~mask
            if not left and ((pile_mask | mask) & one_rank).bit_count() == 4:
                break  # the play wins the game (ER-4.1)
            # the window this play opens or keeps open, and who it offers
            if kind == "attack":
                new_eligible = surviving & ~(1 << defender)
                answered = defender
            elif kind == "beat":
                new_eligible = surviving & ~(1 << defender) if revised else surviving
                answered = defender if revised else (defender - 1) % n
            else:
                if seat != defender:
                    new_added, new_after_beat = True, added_after_beat or phase == REINFORCE
                elif phase == REINFORCE:
                    new_added, new_after_beat = False, added_after_beat
                else:
                    new_added, new_after_beat = added_since_defender, added_after_beat
                if phase == JOIN or (revised and not new_added):
                    new_eligible = surviving & ~(1 << defender)
                else:
                    new_eligible = surviving
                answered = seat
            if not new_eligible:
                break  # a window nobody is offered (one side left): the decider's
            hands[seat] = left
            if any_shown and shown[seat] & mask:
                shown[seat] &= ~mask
            pile.extend(cards)
            pile_mask |= mask
            last_player, passed, eligible = seat, 0, new_eligible
            if kind == "attack":
                phase = JOIN
            elif kind == "beat":
                phase, added_since_defender, added_after_beat = REINFORCE, False, False
            else:
                added_since_defender, added_after_beat = new_added, new_after_beat
            to_act = offer[eligible][answered]
            i += 1
            continue
        else:
            break  # take, say, show: the decider's
        # the battle ends with this move (ER-3.5, ER-3.8): settle it and start the next, or leave it to the decider
        h = hands.copy()
        nxt = _battle_end(s, table, h, pile_mask, taker, how, attacker, defender)
        if nxt is None:
            break
        hands = h
        attacker, defender = nxt
        pile, pile_mask = [], 0
        phase, to_act, last_player, passed, queue = ATTACK, attacker, None, 0, ()
        eligible = surviving & ~(1 << defender)
        i += 1
    s.hands = tuple(hands)
    if any_shown:
        s.shown = tuple(shown)
    s.pile, s.pile_mask = tuple(pile), pile_mask
    s.phase, s.to_act, s.passed, s.queue = phase, to_act, passed, queue
    s.attacker, s.defender, s.last_player = attacker, defender, last_player
    s.added_since_defender, s.added_after_beat = added_since_defender, added_after_beat
    return s, i


def _claimants(clockwise: tuple, defender: int, last_player, surviving: int, revised: bool, after_beat: bool) -> tuple:
    """ER-3.8: who may claim the pile, in order from the attacker (`clockwise` starts there)."""
    if revised:
        return tuple(x for x in clockwise if surviving >> x & 1 and x != last_player)
    return tuple(x for x in clockwise if surviving >> x & 1 and (x != defender or after_beat))


def _battle_end(s: State, table: _Table, h: list, pile_mask: int, taker, how: str, attacker: int, defender: int):
    """The end of a battle and the start of the next (ER-3.9, ER-3.10, ER-6): the new (attacker, defender), with `h`
    (a copy of the hands) replenished and the deck, discard pile, battle count and ended_by written to `s`; None,
    with `s` untouched, when the decider must take it (ER-5.1 elimination, ER-4.4 limit, ER-2.3 reshuffle)."""
    n = s.n
    eliminated = s.eliminated
    discard = s.discard
    if taker is None:
        discard |= pile_mask
    else:
        h[taker] |= pile_mask
    battles = s.battles + 1
    if how == "concede" and s.revised and h[defender].bit_count() > MAX_HOLDING:
        return None
    limit = s.setup.battle_limit
    if limit is not None and battles >= limit:
        return None
    from_ = table.from_
    first = (attacker, defender) if how == "beat" else (attacker,)
    order = first + tuple(x for x in from_[(first[-1] + 1) % n] if x not in first)
    deck, pos = s.deck, s.deck_pos
    size = len(deck)
    for x in order:
        if eliminated >> x & 1:
            continue
        while h[x].bit_count() < HAND_SIZE:
            if pos == size:
                if discard:
                    return None  # a reshuffle
                break
            h[x] |= 1 << deck[pos]
            pos += 1
    after = table.after
    sub = s.substitute_for
    if sub is not None:  # ER-6.3
        seat = next((x for x in after[sub] if not eliminated >> x & 1), sub)
    elif how == "beat":
        seat = defender
    else:
        seat = next((x for x in after[defender] if not eliminated >> x & 1), defender)
    new_attacker = next((x for x in from_[seat] if not eliminated >> x & 1 and h[x]), seat)  # ER-3.1 R
    team_of = s.setup.team_of
    new_sub = None
    if team_of is None:
        new_defender = next((x for x in after[new_attacker] if not eliminated >> x & 1), new_attacker)
    else:  # ER-6.1, ER-6.2
        left = (new_attacker + 1) % n
        if not eliminated >> left & 1:
            new_defender = left
        else:
            rest = from_[left][1:]
            new_defender = next((x for x in rest if not eliminated >> x & 1 and team_of[x] == team_of[left]), None)
            if new_defender is not None:
                new_sub = left
            else:
                new_defender = next((x for x in rest if not eliminated >> x & 1 and x != new_attacker
                                     and team_of[x] != team_of[new_attacker]), None)
                if new_defender is None:
                    return None
    s.deck_pos, s.discard, s.battles, s.substitute_for, s.ended_by = pos, discard, battles, new_sub, how
    s.attacker, s.defender = new_attacker, new_defender
    return new_attacker, new_defender
