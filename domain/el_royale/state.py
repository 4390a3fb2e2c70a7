"""El Royale state and its fold: ``evolve(state, event)`` never validates, it only applies.

Cards are ints and sets of cards are bit masks (domain.cards). A State is never
mutated once returned: ``evolve`` applies an event to a clone. ``decide`` works
on one private clone per move for speed (``apply`` in place), which is the same
fold; replay's ``fold_step`` applies to the one state the replay owns.
"""

from __future__ import annotations

from ..cards import RANK_MASKS
from ..kit.state import Folded, evolver, folder, replaced, restore, setup_dump, setup_load, snapshot, unchanged
from ..rules import Outcome
from . import clauses
from .setup import HAND_SIZE, Setup

# Phases (ER-3): who is to act and which move types the phase allows.
ATTACK, JOIN, DEFENCE, REINFORCE, CLAIM, TAKE, SETTLE, OVER = (
    "attack", "join", "defence", "reinforce", "claim", "take", "settle", "over")


class State(Folded):
    """Everything the referee knows at one moment of an El Royale game.

    Fields: setup, revised, n; hands and shown (a card mask per seat); deck (tuple) and deck_pos;
    discard (mask); reshuffles; pile (tuple, bottom first) and pile_mask; battles; eliminated (seat
    mask); laid_out (mask) and laid_seat (ER-5.2); phase; dealer; attacker, defender, substitute_for;
    to_act; passed (seat mask since the last card, ER-3.3); last_player; added_since_defender
    (ER-3.6 revised); added_after_beat (ER-3.8 classic); queue (claim or take offers); ended_by
    ('beat' or 'concede'); outcome.
    """

    def __repr__(self) -> str:
        return f"<El Royale state phase={self.phase} to_act={self.to_act} battles={self.battles}>"

    @property
    def deck_count(self) -> int:
        """Cards left in the deck (public, ER-7.3)."""
        return len(self.deck) - self.deck_pos

    @property
    def top(self) -> int | None:
        """The top card of the battle pile, or None when it is empty."""
        return self.pile[-1] if self.pile else None

    def surviving(self, seat: int) -> bool:
        """Whether a seat is still in the game (ER-5)."""
        return not (self.eliminated >> seat) & 1


def initial_state(setup: Setup) -> State:
    """The table before the deal: empty hands, no deck yet."""
    s = State.__new__(State)
    s.setup, s.revised, s.n = setup, setup.revised, setup.n
    s.hands = s.shown = (0,) * setup.n
    s.deck, s.deck_pos, s.discard, s.reshuffles = (), 0, 0, 0
    s.pile, s.pile_mask, s.battles = (), 0, 0
    s.eliminated, s.laid_out, s.laid_seat = 0, 0, None
    s.phase, s.dealer = SETTLE, None
    s.attacker = s.defender = s.substitute_for = s.to_act = s.last_player = None
    s.passed, s.added_since_defender, s.added_after_beat = 0, False, False
    s.queue, s.ended_by, s.outcome = (), None, None
    return s


def _play(s: State, seat: int, cards: list[int]) -> None:
    """Move cards from a seat's hand onto the battle pile, in the order given."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    s.hands = replaced(s.hands, seat, s.hands[seat] & ~mask)
    if s.shown[seat] & mask:
        s.shown = replaced(s.shown, seat, s.shown[seat] & ~mask)
    s.pile = s.pile + tuple(cards)
    s.pile_mask |= mask
    s.last_player = seat


def _take_pile(s: State, seat: int) -> None:
    s.hands = replaced(s.hands, seat, s.hands[seat] | s.pile_mask)
    s.pile, s.pile_mask = (), 0


def _end_battle(s: State, ended_by: str) -> None:
    s.battles += 1
    s.phase, s.to_act, s.queue, s.ended_by = SETTLE, None, (), ended_by


def _open_window(s: State, phase: str, first_from: int, inclusive: bool) -> None:
    """Start a join or reinforce window (ER-3.3) with offers from first_from (inclusive or not)."""
    s.phase, s.passed = phase, 0
    start = first_from - 1 if inclusive else first_from
    _offer_next(s, start)


def _offer_next(s: State, answered: int) -> None:
    """After an answer in a window: close it, or offer the next eligible seat clockwise (ER-3.3)."""
    seat = clauses.next_to_offer(s, answered)
    if seat is None:
        _close_window(s)
    else:
        s.to_act = seat


def _close_window(s: State) -> None:
    if s.phase == JOIN:
        s.phase, s.to_act = DEFENCE, s.defender
    else:
        s.phase = CLAIM
        s.queue = clauses.claim_queue(s)
        s.to_act = s.queue[0] if s.queue else None


def _mask(cards: list[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def _passed(s: State, e: dict) -> None:
    if s.phase == CLAIM:
        s.queue = s.queue[1:]
        s.to_act = s.queue[0] if s.queue else None
        return
    seat = e["seat"]
    s.passed |= 1 << seat
    nxt = clauses.next_to_offer(s, seat)  # _offer_next, the commonest answer of all
    if nxt is None:
        _close_window(s)
    else:
        s.to_act = nxt


def _threw_in(s: State, e: dict) -> None:
    seat = e["seat"]
    _play(s, seat, e["cards"])
    s.passed = 0
    if seat != s.defender:
        s.added_since_defender = True
        if s.phase == REINFORCE:
            s.added_after_beat = True
    elif s.phase == REINFORCE:
        s.added_since_defender = False
    _offer_next(s, seat)


def _drew(s: State, e: dict) -> None:
    seat = e["seat"]
    s.hands = replaced(s.hands, seat, s.hands[seat] | (1 << e["card"]))
    s.deck_pos += 1


def _attacked(s: State, e: dict) -> None:
    _play(s, e["seat"], e["cards"])
    _open_window(s, JOIN, s.defender, inclusive=False)


def _beat(s: State, e: dict) -> None:
    _play(s, e["seat"], e["cards"])
    s.added_since_defender = s.added_after_beat = False
    _open_window(s, REINFORCE, s.defender, inclusive=not s.revised)


def _battle_started(s: State, e: dict) -> None:
    s.attacker, s.defender, s.substitute_for = e["attacker"], e["defender"], e["substitute_for"]
    s.phase, s.to_act, s.last_player, s.passed = ATTACK, e["attacker"], None, 0


def _conceded(s: State, e: dict) -> None:
    _take_pile(s, e["seat"])
    _end_battle(s, "concede")


def _claimed(s: State, e: dict) -> None:
    _take_pile(s, e["seat"])
    _end_battle(s, "beat")


def _pile_discarded(s: State, e: dict) -> None:
    s.discard |= s.pile_mask
    s.pile, s.pile_mask = (), 0
    _end_battle(s, "beat")


def _reshuffled(s: State, e: dict) -> None:
    s.deck, s.deck_pos = tuple(e["order"]), 0
    s.discard = 0
    s.reshuffles = e["k"]


def _showed(s: State, e: dict) -> None:
    seat = e["seat"]
    s.shown = replaced(s.shown, seat, s.shown[seat] | _mask(e["cards"]))


def _dealt(s: State, e: dict) -> None:
    _deal(s, e["dealer"], e["order"])


def _eliminated(s: State, e: dict) -> None:
    seat = e["seat"]
    s.laid_out, s.laid_seat = s.hands[seat], seat
    s.hands = replaced(s.hands, seat, 0)
    s.shown = replaced(s.shown, seat, 0)
    s.eliminated |= 1 << seat
    s.phase = TAKE
    s.queue = tuple(x for x in clauses.clockwise_from(s, s.attacker) if s.surviving(x))
    s.to_act = s.queue[0]


def _took(s: State, e: dict) -> None:
    mask = _mask(e["cards"])
    seat = e["seat"]
    s.hands = replaced(s.hands, seat, s.hands[seat] | mask)
    s.laid_out &= ~mask
    s.queue = s.queue[1:]
    s.to_act = s.queue[0] if s.queue else None


def _laid_out_discarded(s: State, e: dict) -> None:
    s.discard |= s.laid_out
    s.laid_out, s.laid_seat = 0, None
    s.phase = SETTLE


def _won(s: State, e: dict) -> None:
    s.outcome = Outcome(e["by"], tuple(e["seats"]), e["team"])
    s.phase, s.to_act, s.queue = OVER, None, ()


def _drawn(s: State, e: dict) -> None:
    s.outcome = Outcome("draw")
    s.phase, s.to_act, s.queue = OVER, None, ()


# One small function per event kind: what that event changes.
APPLY = {
    "passed": _passed, "threw_in": _threw_in, "drew": _drew, "attacked": _attacked, "beat": _beat,
    "battle_started": _battle_started, "conceded": _conceded, "claimed": _claimed, "pile_discarded": _pile_discarded,
    "reshuffled": _reshuffled, "showed": _showed, "said": unchanged, "dealt": _dealt, "eliminated": _eliminated,
    "took": _took, "laid_out_discarded": _laid_out_discarded, "won": _won, "drawn": _drawn,
}


apply = folder("El Royale", APPLY)
evolve = evolver(apply)


def _deal(s: State, dealer: int, order: list[int]) -> None:
    """ER-2.1: four cards each, one at a time, clockwise beginning with the dealer; the rest is the deck."""
    n = s.n
    hands = [0] * n
    for i in range(HAND_SIZE * n):
        hands[(dealer + i) % n] |= 1 << order[i]
    s.hands, s.dealer = tuple(hands), dealer
    s.deck, s.deck_pos = tuple(order[HAND_SIZE * n:]), 0


def rank_count_in_pile(s: State, rank: int) -> int:
    """How many cards of a rank lie in the battle pile."""
    return (s.pile_mask & RANK_MASKS[rank]).bit_count()


_OUTCOME = ("result", "seats", "team")


def dump_state(s: State) -> dict:
    """The state as JSON-safe data (snapshots): tuples become lists, the set-up a dict."""
    return snapshot(s, lambda setup: setup_dump(setup, lists=False), _OUTCOME)


def load_state(data: dict) -> State:
    """The inverse of dump_state."""
    return restore(State, data, lambda d: setup_load(Setup, d, ("names", "team_names", "team_of")), _OUTCOME,
                   tuples=("hands", "shown", "deck", "pile", "queue"))
