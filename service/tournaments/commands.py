"""The command that makes a tournament: `CreateTournament`, one frozen object, built and checked once where the
request arrived (the JSON API's body, the tournaments page's form, a test or bench's spec).

`from_body` checks the whole spec once: within the JSON bounds (unless the road read it within them already: the
JSON API's body guard, api/http/limits.py, reads every body so), then by the tournament's own rules
(domain.tournament.spec.validate: name, game, options, format, games per table, rounds, duplicate, delay, time
control, players), a refusal naming the field. The facade (service.tournaments.facade) stores what it holds
without looking again. The other director's commands act on a tournament that exists and stay with the facade.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.rules import InvalidSetup
from domain.tournament import spec as tspec

from service.bounds import bounded
from service.errors import BadInput


@dataclass(frozen=True)
class Entrant:
    """A player entered at creation: a name, and a team in a team tournament."""

    name: str
    team: str | None = None


@dataclass(frozen=True)
class CreateTournament:
    """A new tournament: its settings as the tournament's rules validated them (players aside) and its entrants."""

    settings: dict
    players: tuple[Entrant, ...] = ()

    @classmethod
    def from_body(cls, spec: Any, within_bounds: bool = False) -> "CreateTournament":
        """The tournament a spec stands for; raises BadInput naming the field. `within_bounds`: the road read `spec`
        within the JSON bounds already (the JSON API's body guard); any other road's spec is held to them here."""
        if isinstance(spec, dict) and not within_bounds:
            bounded(spec)
        try:
            settings = tspec.validate(spec)
        except InvalidSetup as e:
            raise BadInput(str(e), field=e.field) from None
        players = tuple(Entrant(p["name"], p.get("team")) for p in settings["players"])
        return cls({k: v for k, v in settings.items() if k != "players"}, players)
