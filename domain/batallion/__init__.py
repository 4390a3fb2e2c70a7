"""Batallion (rules/batallion.md, clauses BA-1..BA-6): 3–6 players, two or three packs, jokers, chips, bidding,
five variants, as a pure decider."""

from ..rules import Outcome
from .codec import (JOKER, MOVE_TYPES, chance_of, check_deck, decode_event, encode_event, format_card, format_move, pack,
                    parse_card, parse_move)
from .decider import decide, final, start, step
from .moves import legal_moves
from .setup import VARIANTS, Setup, configure
from .state import State, dump_state, evolve, initial_state, load_state


def to_act(state: State) -> tuple[int, ...]:
    """The seats that may make a move now (`say` aside)."""
    return () if state.outcome is not None or state.to_act is None else (state.to_act,)


def outcome(state: State) -> Outcome:
    """How the game stands; chips are every seat's score, in progress too."""
    return state.outcome or Outcome(None, scores=tuple(state.chips))


_MOVES = {"said": "say", "discarded": "discard", "bid": "bid", "passed": "pass", "attacked": "attack", "defended": "defend"}


def move_of(event: dict) -> dict | None:
    """The player's move an event records, or None for an automatic step."""
    t = event["type"]
    if t == "drew":
        return None if event.get("refill") else {"seat": event["seat"], "type": "draw", "source": event["source"]}
    kind = _MOVES.get(t)
    if kind is None:
        return None
    move = {"seat": event["seat"], "type": kind}
    for key in ("cards", "amount", "target", "text"):
        if key in event:
            move[key] = list(event[key]) if key == "cards" else event[key]
    return move


_CLAUSES = {"dealt": "BA-1.2", "discarded": "BA-2.2", "bid": "BA-3.2", "passed": "BA-3.1", "defended": "BA-4.4",
            "chips_lost": "BA-4.5", "chips_paid": "BA-4.5", "reshuffled": "BA-4.6", "ended": "BA-5.1", "said": "BA-6.3"}


def clause_of(event: dict) -> str:
    """The rulebook clause that decided an event."""
    t = event["type"]
    if t == "drew":
        return "BA-4.6" if event.get("refill") else "BA-2.2"
    if t == "attacked":
        return "BA-4.1" if event.get("first") else "BA-4.2"
    if t == "attack_turn":
        if event.get("roll") is not None:
            return "BA-4.3"
        return "BA-3.3" if event["first"] and event["minimum"] is None else ("BA-4.1" if event["first"] else "BA-6.1")
    return _CLAUSES[t]


def disclosed(state: State, event: dict) -> tuple[dict[int, list[int]], list[int]]:
    """Who an event shows which cards to: ({seat: cards} privately, [cards] to everybody), given the state before it."""
    t = event["type"]
    if t == "dealt":
        n, dealer, order, size = state.n, event["dealer"], event["order"], state.setup.hand_size
        private: dict[int, list[int]] = {seat: [] for seat in range(n)}
        for i in range(size * n):
            private[(dealer + 1 + i) % n].append(order[i])
        return private, [order[size * n]]  # BA-2.1: the up-card is face up
    if t == "drew":  # from the stock only the drawer sees it; from the discard pile everyone sees who took it
        return ({event["seat"]: [event["card"]]}, []) if event["source"] == "stock" else ({}, [event["card"]])
    if t in ("discarded", "attacked", "defended"):
        return {}, list(event["cards"])
    return {}, []
from .match import RANK_BY_SCORE, match_games, next_deal  # noqa: E402  (matches and tournaments)
