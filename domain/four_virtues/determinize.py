"""The Four Virtues' computer analysis (domain/spec.py `Analysis`, docs/analysis.md): a full state sampled from one
seat's knowledge, and a cheap rollout player that plays the round out.

`sample` reads only what the seat saw (its redacted events, FV-1.3, FV-2.2): each round is dealt from a new shuffle of
the whole pack (FV-4.3), so only the current round's cards are hidden, and what the seat knows of them is: its own
hand and stock draws, the up-card, every card taken from the discard pile (the pile is face up), every meld, addition
and discard, and the counts (the opponent's hand, the stock). The opponent's unseen cards and the stock are one pool:
the round's cards the seat has not seen anywhere. The public fields (round, dealer, turn, phase, owed discard, melds,
discard pile, scores) are folded from the same events, hidden cards standing in as placeholders; the opponent's hand
and the stock are then set from one deal of the pool.

Value: the round's points margin, the seat's round points minus the opponent's (FV-4.2), at the end of the round: the
game is a race of round totals to the target, and a round's margin is what a turn's choice changes. `playout` plays
on with one simple player for both seats, moves taken from `moves`' own lists: owed discards, the first combination
listed; draw two from the stock when it may, else one, else the discard pile; lay down the first plain meld listed
(no face card), else the first addition listed; at the stock's end, done; else discard a random card.
"""

from __future__ import annotations

import random

from ..cards import parse_card
from ..hidden import Hidden
from ..randomness import Chance
from .codec import decode_event, pack
from . import inference
from .decider import step
from .legality import move_refusal
from .moves import add_proposals, forced_discards, plain_meld_moves
from .setup import Setup
from .state import DRAW, FINAL, State, apply, initial_state

STOCK = "stock"
MAX_PLAYOUT = 400  # moves: a round has some 60; one still on after this many counts a margin of 0
_PLACEHOLDER = 1000  # hidden cards in the folded public state: never a card (0..51)


def sample(setup: Setup, seat: int, seen: list[dict], rng: random.Random) -> State:
    """One full state consistent with everything `seat` saw (`seen`, domain/spec.py `Analysis`), and nothing else."""
    return deal(fold(setup, seat, seen), rng)


def fold(setup: Setup, seat: int, seen: list[dict]) -> tuple:
    """What `seat` knows, read once: the round's hidden-card bookkeeping and the public state (`deal` draws), and what
    the opponent's choices say of its hand (`evidence` weighs it)."""
    other = 1 - seat
    shadow = initial_state(setup)
    hidden = Hidden()
    watcher = inference.Watcher(seat)
    fresh = iter(range(_PLACEHOLDER, 10 ** 9))
    for item in seen:
        kind, data = item["kind"], item["data"]
        if kind == "dealt":
            hidden = Hidden()  # a new shuffle of the whole pack: the last round's cards tell nothing of this one's
            hand, up = [parse_card(c) for c in data["hand"]], parse_card(data["up_card"])
            hidden.add_known(seat, hand)
            hidden.new_pool(data["round"], [c for c in pack() if c not in hand and c != up])
            hidden.give_unseen(other, data["round"], 10)
            hidden.give_unseen(STOCK, data["round"], data["stock_count"])
            theirs = [next(fresh) for _ in range(10)]
            dealer = data["dealer"]
            first, second = (hand, theirs) if seat != dealer else (theirs, hand)  # FV-1.3 R: non-dealer even places
            order = [c for pair in zip(first, second) for c in pair] + [up] + [next(fresh) for _ in range(data["stock_count"])]
            event = {"type": "dealt", "round": data["round"], "dealer": dealer, "order": order}
        elif kind == "drew":
            who = data["seat"]
            if "cards" in data:
                event = decode_event({"type": kind, **data})
                if data["source"] == "discard":
                    hidden.add_known(who, event["cards"])
                else:
                    hidden.move_unseen(STOCK, who, len(event["cards"]))
                    for c in event["cards"]:
                        hidden.locate(c, who)
            else:
                hidden.move_unseen(STOCK, who, data["count"])
                event = {"type": kind, "seat": who, "source": "stock", "cards": list(shadow.stock[:data["count"]])}
        else:
            event = decode_event({"type": kind, **data})
            if kind in ("melded", "added", "forced_discarded", "discarded"):
                face = [event["face"]] if event.get("face") is not None else []
                hidden.take_known(event["seat"], list(event["cards"]) + face)
        watcher.see(event, shadow)
        apply(shadow, event)
    return seat, hidden, shadow, watcher.finish()


def deal(folded: tuple, rng: random.Random) -> State:
    """One full state drawn from `fold`'s reading (the folded knowledge is left as it was)."""
    seat, hidden, shadow, _ = folded
    other = 1 - seat
    state = shadow.clone()
    if state.outcome is None and state.round:
        dealt = hidden.deal(rng)
        hands = [None, None]
        hands[seat] = tuple(sorted(dealt.get(seat, ())))
        hands[other] = tuple(sorted(dealt.get(other, ())))
        state.hands, state.stock = tuple(hands), tuple(dealt.get(STOCK, ()))
    return state


def evidence(folded: tuple, state: State) -> float:
    """How likely the sampled opponent's hand makes its discards and `done`s (domain/four_virtues/inference.py)."""
    other = 1 - folded[0]
    return inference.weight(folded[3], other, state.hands[other])


# -- the rollout player ---------------------------------------------------------------------------------------------


def _listed(s: State, seat: int, proposals) -> dict | None:
    """The first of `moves`' proposals the judge lets pass."""
    return next((m for m in proposals if move_refusal(s, seat, m) is None), None)


def choose(s: State, rng: random.Random) -> dict:
    """The cheap player's move for the seat to act (see the module doc), always one `moves` lists."""
    if s.owed is not None:
        return next(forced_discards(s, s.owed[0]))
    seat = s.turn
    if s.phase == DRAW:
        draws = ({"seat": seat, "type": "draw", "source": "stock", "count": 2},
                 {"seat": seat, "type": "draw", "source": "stock", "count": 1},
                 {"seat": seat, "type": "draw", "source": "discard"})
        return _listed(s, seat, draws)
    meld = next(plain_meld_moves(s, seat), None)
    if meld is not None:
        return meld
    add = _listed(s, seat, add_proposals(s, seat))
    if add is not None:
        return add
    if s.phase == FINAL:
        return {"seat": seat, "type": "done"}
    return {"seat": seat, "type": "discard", "cards": [rng.choice(s.hands[seat])]}


def value(s: State, seat: int, round_: int) -> float:
    """The seat's points margin in round `round_` (0 if it is still on)."""
    if len(s.rounds) < round_:
        return 0.0
    points = s.rounds[round_ - 1]
    return float(points[seat] - points[1 - seat])


def playout(state: State, seat: int, rng: random.Random, chance: Chance, before: State) -> float:
    """Play out the round `before` (the state the candidate move was made in) was in, from `state` (after the move,
    left as it was); the seat's margin in that round."""
    s, round_ = state, before.round
    for _ in range(MAX_PLAYOUT):
        if len(s.rounds) >= round_ or s.outcome is not None:
            break
        s = step(s, choose(s, rng), chance)[1]
    return value(s, seat, round_)
