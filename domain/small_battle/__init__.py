"""Small Battle (rules/small-battle.md, clauses SB-1..SB-4): two players, secret formations with published
commitments, a seeded battle pile, as a pure decider."""

from ..rules import Outcome
from .clauses import commit, salt_label
from .codec import (MOVE_TYPES, chance_of, check_deck, decode_event, encode_event, format_card, format_move,
                    formation_card, pack, parse_card, parse_move)
from .decider import decide, final, legal_moves, start, step
from .setup import Setup, configure
from .state import State, dump_state, evolve, initial_state, load_state


def to_act(state: State) -> tuple[int, ...]:
    """The seats that may make a move now: both may arrange until they have; then the striker."""
    if state.outcome is not None:
        return ()
    if not state.arranged:
        return tuple(seat for seat in range(2) if state.formations[seat] is None)
    return (state.to_act,)


def outcome(state: State) -> Outcome:
    """How the game stands (SB-3.1: a win, never a tie)."""
    return state.outcome or Outcome(None)


def move_of(event: dict) -> dict | None:
    """The player's move an event records, or None for an automatic step."""
    t = event["type"]
    if t == "arranged":
        return {"seat": event["seat"], "type": "arrange", "formation": [str(r) for r in event["formation"]]}
    if t == "struck":
        return {"seat": event["seat"], "type": "strike", "position": event["position"]}
    if t == "said":
        return {"seat": event["seat"], "type": "say", "text": event["text"]}
    return None


_CLAUSES = {"started": "SB-1.2", "arranged": "SB-1.3", "drew": "SB-2.1", "won": "SB-3.1", "said": "SB-4.2"}


def clause_of(event: dict) -> str:
    """The rulebook clause that decided an event."""
    if event["type"] == "struck":
        return {"removed": "SB-2.2", "held": "SB-2.2", "revealed": "SB-2.3"}[event["result"]]
    return _CLAUSES[event["type"]]


def disclosed(state: State, event: dict) -> tuple[dict[int, list[int]], list[int]]:
    """Who an event shows which cards to: a formation to its owner, each draw to both, an Ace's position to both."""
    t = event["type"]
    if t == "arranged":
        seat = event["seat"]
        return {seat: [formation_card(seat, r) for r in event["formation"]]}, []
    if t == "drew":
        return {}, [event["card"]]
    if t == "struck" and event["result"] == "revealed":
        return {}, [formation_card(1 - event["seat"], event["rank"])]
    return {}, []


def honesty(events: list[dict], seed: str) -> dict:
    """SB-1.3, SB-3.2: with the revealed seed, check each formation against its published commitments and every
    strike of the log against the formation. `events` are the game's decoded events in order."""
    from ..randomness import Chance
    from .clauses import removes, strike_value

    chance = Chance(seed)
    problems, formations, checked = [], {}, {"commitments": 0, "strikes": 0}
    for e in events:
        if e["type"] == "arranged":
            seat, formation = e["seat"], e["formation"]
            formations[seat] = formation
            for p, rank in enumerate(formation):
                checked["commitments"] += 1
                if commit(chance.salt(salt_label(seat, p)), p, rank) != e["commitment"][p]:
                    problems.append(f"seat {seat}'s position {p} does not match its commitment")
        elif e["type"] == "struck":
            checked["strikes"] += 1
            rank = formations.get(1 - e["seat"], [None] * 8)[e["position"]]
            expected = "revealed" if strike_value(e["card"]) is None else ("removed" if removes(e["card"], rank) else "held")
            if rank != e["rank"] or expected != e["result"]:
                problems.append(f"the strike of seat {e['seat']} on position {e['position']} does not follow from the formation")
    return {"ok": not problems, "problems": problems, **checked}
from .match import next_deal  # noqa: E402  (matches and tournaments)
