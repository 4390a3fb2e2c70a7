"""What a caller may give the service whatever the road: positions within range, bodies within the JSON bounds.

Positions in queries (a version, an `after`, an offset) are integers from 0 to MAX_POSITION: no game's log and no
catalogue comes near it, and every store's integer columns hold it. A body is held to domain.json_limits (integers
within ±(2^53 - 1), 32 levels of nesting, no U+0000 or unpaired surrogate), as the record loader and the API's body
guard hold theirs.
"""

from __future__ import annotations

from typing import Any

from domain import json_limits

from .errors import BadInput

MAX_POSITION = 2**31 - 1


def position(value: Any, name: str, least: int = 0) -> int:
    """A version, `after` or offset from a caller; raises BadInput naming it unless an integer in [least, MAX_POSITION]."""
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= MAX_POSITION:
        raise BadInput(f"{name}: must be an integer from {least} to {MAX_POSITION}", field=name)
    return value


def bounded(body: dict) -> None:
    """A request body within the JSON bounds (domain.json_limits); raises BadInput naming the field."""
    try:
        json_limits.check(body)
    except json_limits.LimitError as e:
        raise BadInput(str(e), field=e.field) from None
