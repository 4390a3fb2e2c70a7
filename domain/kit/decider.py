"""The shape of a decider's `step`, written once: one judge of legality, then only applying (the Decider, python-chess's
one legality judge).

`judged` builds ``step(state, move, chance)``: it raises what the game's `refusal` finds against the move, then plays
it on a copy, folding each event as it is emitted, so the events and the state after them come out of one pass; `say`
(table talk, contract §2) is the same in every game. `decide_by` gives ``decide`` from ``step``; `opening_outcomes`
and `reshuffled` are the chance every game's opening and reshuffles share.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from ..randomness import Chance, OutcomeMismatch
from ..rules import InvalidSetup, RuleViolation


def said(move: dict) -> dict:
    """The event of a `say` move (table talk changes nothing on the table)."""
    return {"type": "said", "seat": move["seat"], "text": move["text"]}


def emitter(apply: Callable[[Any, dict], None]) -> Callable[[Any, list, dict], None]:
    """``emit(state, events, event)``: the event recorded and folded into the state being decided on, in place."""

    def emit(s, events: list[dict], event: dict) -> None:
        events.append(event)
        apply(s, event)

    return emit


def judged(refusal: Callable, play: Callable, apply: Callable, thaw: Callable | None = None,
           freeze: Callable | None = None) -> Callable:
    """``step``: decide and evolve in one pass. `refusal(state, move)` is the game's one judge (a RuleViolation, or None
    for a legal move); `play(s, events, move, chance)` emits what any other move than `say` makes happen, on a clone
    of the state (or `thaw(state)`, then `freeze`)."""

    def step(state, move: dict, chance) -> tuple[list[dict], Any]:
        refused = refusal(state, move)
        if refused is not None:
            raise refused
        s = state.clone() if thaw is None else thaw(state)
        events: list[dict] = []
        if move["type"] == "say":
            event = said(move)
            events.append(event)
            apply(s, event)
        else:
            play(s, events, move, chance)
        return events, (s if freeze is None else freeze(s))

    step.__doc__ = "decide and evolve in one pass: the events and the state after them; raises what `refusal` finds."
    return step


def decide_by(step: Callable) -> Callable:
    """``decide(state, move, chance)``: the events of `step`, without its state."""

    def decide(state, move: dict, chance) -> list[dict]:
        return step(state, move, chance)[0]

    decide.__doc__ = "The events a legal move causes; raises RuleViolation (clause, reason) for an illegal one."
    return decide


@contextmanager
def opening_outcomes():
    """The opening's random steps (a `start`): a record's fixed outcome that does not fit is an invalid set-up."""
    try:
        yield
    except OutcomeMismatch as e:
        raise InvalidSetup("outcomes", str(e)) from None


def reshuffled(chance: Chance, k: int, cards: list[int], clause: str) -> dict:
    """The event of the game's k-th reshuffle of `cards` (label `reshuffle:k`); a record's fixed outcome for it that
    does not fit these cards is refused under `clause`."""
    try:
        order = chance.shuffle(f"reshuffle:{k}", cards)
    except OutcomeMismatch as e:
        raise RuleViolation(clause, str(e)) from None
    return {"type": "reshuffled", "k": k, "order": order}
