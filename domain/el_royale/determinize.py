"""El Royale's computer analysis (domain/spec.py `Analysis`, docs/analysis.md): a full state sampled from one seat's
knowledge, and a cheap rollout player.

`sample` reads only what the seat saw (its redacted events and the cards each showed it, ER-2.2, ER-2.5): its own
deal and draws, every play, show, concession, claim, laid-out hand and take, and the public counts. The discard pile
is known to a seat that watched (every card reached it face up); a reshuffle makes its cards unseen again, in one
pool (domain.hidden). Unseen cards: the other hands' cards no one saw them get, and the deck. The public fields of the
state (phase, roles, pile, passes, queue, ...) are folded from the same events with the hidden cards left blank;
hands, deck, discard and laid-out cards are then set from one deal of the unseen cards.

`playout` plays on in place through `fold_legal` (no second legality check: each move is taken from `moves`' lists,
`whole_plays` and `answer`) with one simple player for every seat: win when a play can
(ER-4.1); attack with the rank it holds fewest of; throw in whatever it may (shedding ends games sooner); beat with
the beat that breaks the fewest cards of its rank, the lowest among equals, else concede; never claim; take nothing.
Measured in docs/analysis.md: some 500 moves a playout, 72% of them passes. Value: 1 when the seat's side wins, else 0 (a draw or a game still on after
`MAX_PLAYOUT` moves counts 0).
"""

from __future__ import annotations

import random

from ..cards import PACK, SAME_RANK, parse_card, rank_of
from ..hidden import Hidden
from ..randomness import Chance
from . import inference
from .decider import fold_legal
from .moves import answer, whole_plays
from .setup import HAND_SIZE, Setup
from .state import ATTACK, CLAIM, DEFENCE, JOIN, REINFORCE, TAKE, State, apply, initial_state

MAX_PLAYOUT = 3000
DECK = "deck"


def _cards(values) -> list[int]:
    return [parse_card(v) for v in values]


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def sample(setup: Setup, seat: int, seen: list[dict], rng: random.Random, hands: dict | None = None) -> State:
    """One full state consistent with everything `seat` saw (`seen`, domain/spec.py `Analysis`), and nothing else;
    with `hands` ({seat: cards}, REFEREE ONLY: a colluding partner's hand), also with those hands held (`fold`)."""
    return deal(fold(setup, seat, seen, hands), rng)


def fold(setup: Setup, seat: int, seen: list[dict], hands: dict | None = None) -> tuple:
    """What `seat` knows, read once: the hidden-card bookkeeping and the public state (`deal` draws from it). With
    `hands` ({seat: cards}, REFEREE ONLY: what a colluding partner would tell, domain.collusion), those seats are
    known to hold exactly those cards."""
    hidden, shadow = Hidden(), initial_state(setup)
    pile: list[int] = []
    discard: list[int] = []
    laid: list[int] = []
    watcher = inference.Watcher(seat)
    for item in seen:
        kind, data = item["kind"], item["data"]
        event = {"type": kind, **data}
        who = data.get("seat")
        if kind == "dealt":
            hand = _cards(data["hand"])
            hidden.add_known(seat, hand)
            hidden.new_pool(0, [c for c in PACK if c not in hand])
            for other in range(setup.n):
                if other != seat:
                    hidden.give_unseen(other, 0, HAND_SIZE)
            hidden.give_unseen(DECK, 0, data["deck_count"])
            event = {"type": kind, "dealer": data["dealer"], "order": [0] * (HAND_SIZE * setup.n + data["deck_count"])}
        elif kind == "drew":
            if "card" in data:
                card = parse_card(data["card"])
                hidden.move_unseen(DECK, seat)
                hidden.locate(card, seat, new=True)
                event["card"] = card
            else:
                hidden.move_unseen(DECK, who)
                event["card"] = 0
        elif kind == "reshuffled":
            hidden.new_pool(("reshuffle", data["k"]), discard)
            hidden.give_unseen(DECK, ("reshuffle", data["k"]), len(discard))
            event = {"type": kind, "k": data["k"], "order": [0] * len(discard)}
            discard = []
        elif kind in ("attacked", "threw_in", "beat"):
            cards = _cards(data["cards"])
            hidden.take_known(who, cards)
            pile.extend(cards)
            event["cards"] = cards
        elif kind == "showed":
            cards = _cards(data["cards"])
            for c in cards:
                hidden.locate(c, who)
            event["cards"] = cards
        elif kind in ("conceded", "claimed"):
            hidden.add_known(who, pile)
            pile = []
        elif kind == "pile_discarded":
            discard.extend(pile)
            pile = []
        elif kind == "eliminated":
            laid = _cards(item["shown"])
            hidden.take_known(who, laid)
            hidden.clear(who)
        elif kind == "took":
            cards = _cards(data["cards"])
            for c in cards:
                laid.remove(c)
            hidden.add_known(who, cards)
            event["cards"] = cards
        elif kind == "laid_out_discarded":
            discard.extend(laid)
            laid = []
        watcher.see(kind, who, event.get("cards") or [], shadow)
        apply(shadow, event)
    for other, cards in (hands or {}).items():
        hidden.reveal(other, list(cards))
    return setup, hidden, shadow, discard, laid, watcher.finish()


def deal(folded: tuple, rng: random.Random) -> State:
    """One full state drawn from `fold`'s reading (the folded knowledge is left as it was)."""
    setup, hidden, shadow, discard, laid, _ = folded
    dealt = hidden.deal(rng)
    state = shadow.clone()
    state.hands = tuple(_mask(dealt.get(s, ())) for s in range(setup.n))
    state.deck, state.deck_pos = tuple(dealt.get(DECK, ())), 0
    state.discard, state.laid_out = _mask(discard), _mask(laid)
    return state


def hand(state: State, seat: int) -> list[int]:
    """The cards of `seat`'s hand in a full state (what `fold`'s `hands` takes)."""
    return [c for c in PACK if state.hands[seat] >> c & 1]


# -- the rollout player ---------------------------------------------------------------------------------------------


def evidence(folded: tuple, state: State) -> float:
    """How likely the sampled hands make the other seats' public choices (domain/el_royale/inference.py)."""
    return inference.weight(folded[5], state.hands)


def _wins(s: State, hand: int, cards: list[int]) -> bool:
    """ER-4.1: the play empties the hand and makes four of its rank on the pile. The count is compared first: the
    cards are distinct cards of the hand (a listed play), so they are the whole hand exactly when as many."""
    return (len(cards) == hand.bit_count() and _mask(cards) == hand
            and (s.pile_mask & SAME_RANK[cards[0]]).bit_count() + len(cards) == 4)


def choose(s: State, rng: random.Random) -> dict:
    """The cheap player's move for the seat to act (see the module doc), always one of `moves`' lists (legal)."""
    phase = s.phase
    if phase == JOIN or phase == REINFORCE:  # most moves of a playout: offers in a window
        if not s.hands[s.to_act] & SAME_RANK[s.pile[-1]]:
            return answer(s, "pass")  # nothing of the rank to think about: pass
        held = whole_plays(s, "throw_in")
        return held[0] if held else answer(s, "pass")
    if phase == CLAIM:
        return answer(s, "pass")
    if phase == ATTACK:
        fewest, smallest = 5, []  # the attacks of the fewest cards (a rank has four), in the order listed
        for m in whole_plays(s, "attack"):
            size = len(m["cards"])
            if size < fewest:
                fewest, smallest = size, [m]
            elif size == fewest:
                smallest.append(m)
        return rng.choice(smallest)
    if phase == DEFENCE:
        beats = whole_plays(s, "beat")
        if beats:
            hand = s.hands[s.to_act]
            low, cheapest = None, []  # the beats of the lowest cost, in the order listed
            for m in beats:
                if _wins(s, hand, m["cards"]):
                    return m  # the first winning beat listed; nothing random was drawn before it
                cost = _beat_cost(hand, m)
                if low is None or cost < low:
                    low, cheapest = cost, [m]
                elif cost == low:
                    cheapest.append(m)
            return rng.choice(cheapest)
        return answer(s, "concede")
    if phase == TAKE:
        return answer(s, "take")
    raise ValueError(f"no move in phase {phase}")


def _beat_cost(hand: int, move: dict) -> tuple[int, int]:
    """A beat's cost to the hand: the cards of its rank it leaves behind (a broken group), then its rank."""
    cards = move["cards"]
    return (hand & SAME_RANK[cards[0]]).bit_count() - len(cards), rank_of(cards[0])


def value(s: State, seat: int) -> float:
    """1 when `seat`'s side has won, else 0."""
    o = s.outcome
    return 1.0 if o is not None and o.result != "draw" and seat in o.seats else 0.0


def playout(state: State, seat: int, rng: random.Random, chance: Chance, memo: dict | None = None) -> float:
    """Play on from `state` (a copy; the state given is left as it was) to the end; the seat's value.

    With `memo` (a dict the candidates of one sample share, domain.analysis): at the next battle's start (an attack
    phase), the position and the rollout stream's state are the key of the rest of the playout, whose value depends on
    nothing else (the chance is the sample's, the move cap counts from there): a candidate that reaches a key another
    reached returns that value. Attacks with different cards of one rank often reach the same next battle (the rest
    of the rank is thrown in), so their rollouts are played once."""
    s = state.clone()
    key = None
    if memo is not None:
        for _ in range(MAX_PLAYOUT):
            if s.outcome is not None or s.phase == ATTACK:
                break
            fold_legal(s, choose(s, rng), chance)
        if s.outcome is None:
            key = _key(s, rng)
            if key in memo:
                return memo[key]
    play, pick = fold_legal, choose  # locals: the loop below is most of an analysis' time
    for _ in range(MAX_PLAYOUT):
        if s.outcome is not None:
            break
        play(s, pick(s, rng), chance)
    v = value(s, seat)
    if key is not None:
        memo[key] = v
    return v


def _key(s: State, rng: random.Random) -> tuple:
    """A position and the rollout stream's state, as values: equal exactly when the rest of a playout is the same.

    Every field of the state in name order, and the stream's state (its 625 words), compared as they are: building
    them is some 10 microseconds, where a digest of their text took 70 (a playout is about a millisecond)."""
    return tuple(sorted(s.__dict__.items())), rng.getstate()
