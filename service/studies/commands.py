"""The command that opens a study: `StartStudy`, one frozen object, built once where the request arrived (the JSON
API's body, the study form of the pages, a test or bench).

What the request alone tells is checked here, once: the seed (a string of at most MAX_SEED characters; one is drawn
when none is given, so that the study's start is fixed from here on). The version and the seat are whole numbers on
every road (the JSON API's schema, the form's digits); whether the game has them is the facade's one check
(service.studies.facade), which needs the game and comes after the caller's access, as every refusal about a game
does.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from service.errors import BadInput

MAX_SEED = 100


@dataclass(frozen=True)
class StartStudy:
    """A study of game `game_id` at its store `version`, from what `seat` knew, sampled with `seed`; the user plays
    every seat in turn with `every_seat`, else the bots play the others."""

    game_id: str
    version: int
    seat: int
    seed: str
    every_seat: bool = False

    @classmethod
    def from_body(cls, game_id: Any, body: dict) -> "StartStudy":
        """The study a body ({version, seat, seed?, every_seat?}) asks for; raises BadInput for a bad seed."""
        seed = body.get("seed") or secrets.token_hex(8)
        if not isinstance(seed, str) or len(seed) > MAX_SEED:
            raise BadInput(f"seed: a string of at most {MAX_SEED} characters", field="seed")
        return cls(str(game_id), body.get("version"), body.get("seat"), seed, bool(body.get("every_seat", False)))
