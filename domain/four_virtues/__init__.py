"""The Four Virtues of Royalty (rules/four-virtues.md, clauses FV-1..FV-5): a two-player rummy with scored melds
and face-card virtues, as a pure decider."""

from ..cards import format_card, parse_card
from ..rules import Outcome
from .codec import MOVE_TYPES, chance_of, check_deck, decode_event, encode_event, format_move, pack, parse_move
from .decider import decide, final, start, step
from .moves import legal_moves
from .setup import Setup, configure
from .state import State, dump_state, evolve, initial_state, load_state


def to_act(state: State) -> tuple[int, ...]:
    if state.outcome is not None:
        return ()
    return (state.owed[0],) if state.owed is not None else (state.turn,)


def outcome(state: State) -> Outcome:
    return state.outcome or Outcome(None, scores=tuple(state.scores))


_MOVES = {"melded": "meld", "added": "add", "forced_discarded": "forced_discard", "discarded": "discard",
          "done": "done", "said": "say"}


def move_of(event: dict) -> dict | None:
    t = event["type"]
    if t == "drew":
        if event.get("spades"):
            return None
        move = {"seat": event["seat"], "type": "draw", "source": event["source"]}
        if event["source"] == "stock":
            move["count"] = len(event["cards"])
        return move
    kind = _MOVES.get(t)
    if kind is None:
        return None
    move = {"seat": event["seat"], "type": kind}
    if t == "melded":
        move["cards"] = list(event["cards"])
        if event.get("face") is not None:
            move["face"] = event["face"]
        if event.get("lowered") is not None:
            move["lowered"] = dict(event["lowered"])
        for key in ("force", "draw"):
            if key in event:
                move[key] = event[key]
    elif t == "added":
        move["meld"], move["cards"] = event["meld"], list(event["cards"])
    elif t in ("forced_discarded", "discarded"):
        move["cards"] = list(event["cards"])
    elif t == "said":
        move["text"] = event["text"]
    return move


_CLAUSES = {"dealt": "FV-1.3", "melded": "FV-2.3", "added": "FV-2.4", "forced_discarded": "FV-3.4",
            "discarded": "FV-2.1", "done": "FV-4.1", "round_ended": "FV-4.2", "won": "FV-4.3", "said": "FV-5.4"}


def clause_of(event: dict) -> str:
    if event["type"] == "drew":
        return "FV-3.5" if event.get("spades") else "FV-2.2"
    return _CLAUSES[event["type"]]


def disclosed(state: State, event: dict) -> tuple[dict[int, list[int]], list[int]]:
    t = event["type"]
    if t == "dealt":
        order, dealer = event["order"], event["dealer"]
        return {1 - dealer: list(order[0:20:2]), dealer: list(order[1:20:2])}, [order[20]]
    if t == "drew" and event["source"] == "stock":
        return {event["seat"]: list(event["cards"])}, []
    if t in ("melded", "added", "forced_discarded", "discarded"):
        cards = list(event["cards"]) + ([event["face"]] if event.get("face") is not None else [])
        return {}, cards
    return {}, []
from .match import next_deal  # noqa: E402  (matches and tournaments)
