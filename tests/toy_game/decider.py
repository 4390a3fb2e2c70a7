"""High Card's rules (rulebook.md, HC-1..HC-4): set-up, state, and one predicate per rule shared by `step` and
`legal_moves` (a move is legal exactly when `refusal` finds nothing to refuse)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator

from domain.cards import PACK, format_card, rank_of
from domain.kit.decider import decide_by, opening_outcomes
from domain.kit.setup import Seated
from domain.players import individual_names
from domain.randomness import Chance
from domain.rules import InvalidSetup, Outcome, RuleViolation


@dataclass(frozen=True)
class Setup(Seated):
    """A validated High Card table."""

    names: tuple[str, ...]
    rounds: int = 3
    dealer: int | None = None
    starter: int | None = None

    def options(self) -> dict:
        """The options object of a record for this set-up."""
        return {"rounds": self.rounds}


def configure(options, players, dealer=None, starter=None) -> Setup:
    """Validate options and players (HC-1.1, HC-1.2, HC-1.3); raises InvalidSetup naming the field."""
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise InvalidSetup("options", "must be an object")
    unknown = set(options) - {"rounds"}
    if unknown:
        raise InvalidSetup("options", f"unknown option(s): {', '.join(sorted(map(str, unknown)))}; known: rounds")
    rounds = options.get("rounds", 3)
    if type(rounds) is not int or not 1 <= rounds <= 10:
        raise InvalidSetup("options.rounds", "must be an integer from 1 to 10 (HC-1.2)")
    if not isinstance(players, list) or len(players) != 2:
        raise InvalidSetup("players", "High Card needs a list of exactly 2 players (HC-1.1)")
    names = individual_names(players, "High Card is played by two individuals: no teams (HC-1.1)")
    for field, value in (("dealer", dealer), ("starter", starter)):
        if value is not None and (type(value) is not int or not 0 <= value < 2):
            raise InvalidSetup(field, "must be a seat number, 0 or 1")
    return Setup(tuple(names), rounds, dealer, starter)


@dataclass(frozen=True)
class State:
    """The fold of a game's events: its set-up, hands, the round being played, rounds won, the outcome."""

    setup: Setup
    hands: tuple[tuple[int, ...], ...] = ((), ())
    leader: int = 0
    to_act: int | None = None
    trick: tuple[int, ...] = ()  # the cards of the round in play, the leader's first
    played: int = 0  # rounds finished
    won: tuple[int, int] = (0, 0)
    outcome: Outcome | None = None


def initial_state(setup: Setup) -> State:
    """The state before the deal."""
    return State(setup, leader=0 if setup.starter is None else setup.starter)


def start(setup: Setup, chance: Chance) -> list[dict]:
    """HC-1.2: the shuffle and the deal."""
    with opening_outcomes():
        order = chance.shuffle("deal", list(PACK))
    return [{"type": "dealt", "rounds": setup.rounds, "order": order}]


def hand_of(order: list[int], rounds: int, seat: int) -> list[int]:
    """HC-1.2: seat 0 takes the first `rounds` cards of the shuffled pack, seat 1 the next."""
    return list(order[seat * rounds:(seat + 1) * rounds])


# -- the rules: one predicate each, read by step and by legal_moves ----------------------------------------------


def refusal(s: State, move: dict) -> RuleViolation | None:
    """Why the rules refuse a move now (HC-3.1, HC-2.1, HC-2.2), or None for a legal one."""
    if s.outcome is not None:
        return RuleViolation("HC-3.1", "the game is over: no further moves")
    if move["type"] == "say":
        return None
    if move["seat"] != s.to_act:
        return RuleViolation("HC-2.1", f"not your turn: seat {s.to_act} plays")
    cards = move["cards"]
    if len(cards) != 1:
        return RuleViolation("HC-2.2", "play exactly one card")
    if cards[0] not in s.hands[move["seat"]]:
        return RuleViolation("HC-2.2", f"you do not hold {format_card(cards[0])}")
    return None


def round_winner(trick: tuple[int, ...], leader: int) -> int | None:
    """HC-2.3: the seat of the higher rank, None for equal ranks."""
    lead, follow = rank_of(trick[0]), rank_of(trick[1])
    return None if lead == follow else (leader if lead > follow else 1 - leader)


def legal_moves(s: State) -> Iterator[dict]:
    """Every legal move of the seat to act (`say` aside): each card of its hand that `refusal` lets pass."""
    if s.to_act is None:
        return
    for card in sorted(s.hands[s.to_act]):
        move = {"seat": s.to_act, "type": "play", "cards": [card]}
        if refusal(s, move) is None:
            yield move


def step(state: State, move: dict, chance: Chance) -> tuple[list[dict], State]:
    """decide and evolve in one pass; raises RuleViolation for an illegal move."""
    refused = refusal(state, move)
    if refused is not None:
        raise refused
    if move["type"] == "say":
        event = {"type": "said", "seat": move["seat"], "text": move["text"]}
        return [event], evolve(state, event)
    events = [{"type": "played", "seat": move["seat"], "cards": list(move["cards"])}]
    s = evolve(state, events[0])
    if len(s.trick) == 2:
        events.append({"type": "round_ended", "round": s.played + 1, "winner": round_winner(s.trick, s.leader)})
        s = evolve(s, events[-1])
        if s.played == s.setup.rounds:
            a, b = s.won
            events.append({"type": "ended", "result": "draw" if a == b else "win",
                           "seats": [] if a == b else [0 if a > b else 1]})
            s = evolve(s, events[-1])
    return events, s


decide = decide_by(step)


def evolve(s: State, e: dict) -> State:
    """The pure fold of one event."""
    t = e["type"]
    if t == "dealt":
        hands = tuple(tuple(hand_of(e["order"], e["rounds"], seat)) for seat in range(2))
        return replace(s, hands=hands, to_act=s.leader)
    if t == "played":
        seat, card = e["seat"], e["cards"][0]
        hands = tuple(tuple(c for c in h if c != card) if i == seat else h for i, h in enumerate(s.hands))
        return replace(s, hands=hands, trick=s.trick + (card,), to_act=1 - seat)
    if t == "round_ended":
        winner = e["winner"]
        won = s.won if winner is None else tuple(w + (i == winner) for i, w in enumerate(s.won))
        leader = s.leader if winner is None else winner
        return replace(s, trick=(), played=s.played + 1, won=won, leader=leader, to_act=leader)
    if t == "ended":
        return replace(s, to_act=None, outcome=Outcome(e["result"], tuple(e["seats"]), None, tuple(s.won)))
    return s  # said


def to_act(s: State) -> tuple[int, ...]:
    """The seat that may play now (`say` aside)."""
    return () if s.to_act is None or s.outcome is not None else (s.to_act,)


def outcome(s: State) -> Outcome:
    """How the game stands; the rounds won are every seat's score, in progress too."""
    return s.outcome or Outcome(None, scores=tuple(s.won))


def final(s: State) -> dict:
    """The verdict's `final` (the referee's view)."""
    return {"hands": {str(seat): [format_card(c) for c in hand] for seat, hand in enumerate(s.hands)},
            "won": {str(seat): w for seat, w in enumerate(s.won)}, "rounds": s.played}


def dump_state(s: State) -> dict:
    """A JSON-safe snapshot."""
    setup = s.setup
    out = {"setup": {"names": list(setup.names), "rounds": setup.rounds, "dealer": setup.dealer,
                     "starter": setup.starter}, "hands": [list(h) for h in s.hands], "leader": s.leader, "to_act": s.to_act,
           "trick": list(s.trick), "played": s.played, "won": list(s.won), "outcome": None}
    if s.outcome is not None:
        out["outcome"] = {"result": s.outcome.result, "seats": list(s.outcome.seats), "scores": list(s.outcome.scores)}
    return out


def load_state(d: dict) -> State:
    """The inverse of dump_state."""
    o = d["outcome"]
    return State(Setup(**{**d["setup"], "names": tuple(d["setup"]["names"])}), tuple(tuple(h) for h in d["hands"]), d["leader"], d["to_act"], tuple(d["trick"]),
                 d["played"], tuple(d["won"]),
                 None if o is None else Outcome(o["result"], tuple(o["seats"]), None, tuple(o["scores"])))
