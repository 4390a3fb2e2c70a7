"""The disclosure ledger (referee-facing): which cards each event showed to whom, and when each seat first saw a card.

Entries, in log order::

    {"version", "kind", "to": "all" | [seats], "cards": [...]}

built with the decider's `disclosed(state_before, event)`, folding the state with
`evolve` (a rewind restores its saved state). When the game ends (`seed_revealed`) one
last entry shows every card to all: the whole game is disclosed at the end.
"""

from __future__ import annotations

from typing import Any, Iterable

from domain.cards import CardError
from domain.game import Game
from domain.games import spec_for


def disclosure_ledger(stored_events: Iterable[Any], withheld: bool = False) -> list[dict]:
    """Every disclosure of cards in a game's stored events (without the end's, if the end is `withheld` from the
    reader: service.access.Access.end_shown); raises ValueError without the Created event."""
    events = list(stored_events)
    if not events or not isinstance(events[0], Game.Created):
        raise ValueError("a game's event log starts with its Created event")
    created = events[0]
    spec = spec_for(created.game)
    decider, codec = spec.decider, spec.codec
    setup = decider.configure(created.options, created.players, created.dealer, created.starter)
    state = decider.initial_state(setup)
    every_card = [codec.format_card(c) for c in sorted(set(codec.pack(setup)))]
    fmt = codec.format_card
    out: list[dict] = []
    for e in events[1:]:
        version = e.originator_version
        if isinstance(e, Game.Rewound):
            state = codec.load_state(e.state)
        elif isinstance(e, Game.SeedRevealed) and not withheld:
            out.append({"version": version, "kind": "seed_revealed", "to": "all",
                        "cards": list(every_card)})
        elif isinstance(e, Game.Happened):
            event = codec.decode_event(e.data)
            private, public = decider.disclosed(state, event)
            for seat in sorted(private):
                if private[seat]:
                    out.append({"version": version, "kind": e.kind, "to": [seat], "cards": [fmt(c) for c in private[seat]]})
            if public:
                out.append({"version": version, "kind": e.kind, "to": "all", "cards": [fmt(c) for c in public]})
            state = decider.evolve(state, event)
    return out


def who_could_see(ledger: list[dict], card: str, game: str) -> dict:
    """{seat or "all": the first version it could see `card`}; a seat seeing it after everybody could is not listed."""
    card = _canonical(card, game)
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


def _canonical(card: str, game: str) -> str:
    """`10d` -> `TD`; a string that is not a card of the game is compared as it is."""
    codec = spec_for(game).codec
    try:
        return codec.format_card(codec.parse_card(card))
    except CardError:
        return card
