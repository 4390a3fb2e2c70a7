"""`Asked`: what a road received for a command, before the command is checked (service.play.commands).

A seat's or the referee's command is checked only once the facade knows who the token is (401/403/404 come before
anything about the command, on every road), and a move's check needs the token's seat. So a road builds an `Asked`
(the command's `from_body`): the body as it came, what came beside it (a move's `Idempotency-Key` header, a ruling's
dispute number from the path) and whether the road read the body within the JSON bounds already (`within_bounds`:
the JSON API's body guard, api/http/limits.py). Its `checked(...)` is the command's one check and gives the typed
command; nothing after it looks again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Mapping, TypeVar
from uuid import UUID

C = TypeVar("C")


@dataclass(frozen=True)
class Asked(Generic[C]):
    """A command of type `command` as a road received it, unchecked: `checked(...)` gives the command or raises."""

    command: type[C]
    game_id: str | UUID
    body: Any  # the JSON body (or the form made one) as it came: the command's check says what is wrong with it
    beside: Mapping[str, Any] = field(default_factory=dict)  # what came outside the body (a header, a path number)
    within_bounds: bool = False  # the road read `body` within the JSON bounds already (the JSON API's body guard)

    def checked(self, *context: Any) -> C:
        """The command this stands for, checked once (`context`: what the check needs, a move's seat); raises
        BadInput naming the field (Forbidden: a move naming another seat)."""
        return self.command.check(self, *context)  # type: ignore[attr-defined]
