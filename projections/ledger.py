"""The disclosure ledger (referee-facing): which cards each event showed to whom, and when each seat first saw a card.

Entries, in log order::

    {"version", "kind", "to": "all" | [seats], "cards": [...]}

built with the decider's `disclosed(state_before, event)`, folding the state with
`evolve` (a rewind restores its saved state). When the game ends (`seed_revealed`) one
last entry shows every card to all: the whole game is disclosed at the end.
"""

from __future__ import annotations

from typing import Any, Iterable

from domain.cards import CardError, format_card, format_cards, parse_card
from domain.game import Game, decode_event
from domain.games import decider_for

from .registry import projection_for


def disclosure_ledger(stored_events: Iterable[Any]) -> list[dict]:
    """Every disclosure of cards in a game's stored events; raises ValueError without the Created event."""
    events = list(stored_events)
    if not events or not isinstance(events[0], Game.Created):
        raise ValueError("a game's event log starts with its Created event")
    created = events[0]
    decider = decider_for(created.game)
    state = decider.initial_state(decider.configure(created.options, created.players, created.dealer, created.starter))
    out: list[dict] = []
    for e in events[1:]:
        version = e.originator_version
        if isinstance(e, Game.Rewound):
            state = decider.load_state(e.state)
        elif isinstance(e, Game.SeedRevealed):
            out.append({"version": version, "kind": "seed_revealed", "to": "all",
                        "cards": list(projection_for(created.game).every_card)})
        elif isinstance(e, Game.Happened):
            event = decode_event(e.data)
            private, public = decider.disclosed(state, event)
            for seat in sorted(private):
                if private[seat]:
                    out.append({"version": version, "kind": e.kind, "to": [seat], "cards": format_cards(private[seat])})
            if public:
                out.append({"version": version, "kind": e.kind, "to": "all", "cards": format_cards(public)})
            state = decider.evolve(state, event)
    return out


def who_could_see(ledger: list[dict], card: str) -> dict:
    """{seat or "all": the first version it could see `card`}; a seat seeing it after everybody could is not listed."""
    card = _canonical(card)
    first: dict = {}
    for entry in ledger:
        if card not in entry["cards"]:
            continue
        if entry["to"] == "all":
            first.setdefault("all", entry["version"])
        elif "all" not in first:
            for seat in entry["to"]:
                first.setdefault(seat, entry["version"])
    return first


def _canonical(card: str) -> str:
    """`10d` -> `TD`; a string that is not a standard card is compared as it is."""
    try:
        return format_card(parse_card(card))
    except CardError:
        return card
