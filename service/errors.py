"""What the service layer can refuse, as typed errors the API maps to HTTP statuses."""

from __future__ import annotations


class ServiceError(Exception):
    """A refusal with a message fit to show the caller (never a hidden card, never a traceback)."""

    status = 400
    title = "Bad request"

    def __init__(self, detail: str, field: str | None = None, rule: str | None = None):
        super().__init__(detail)
        self.detail = detail
        self.field = field
        self.rule = rule


class BadInput(ServiceError):
    """Malformed input: names the field."""

    status = 422
    title = "Invalid input"


class NotFound(ServiceError):
    """No such game, dispute or version."""

    status = 404
    title = "Not found"


class Unauthorized(ServiceError):
    """A missing, malformed or unknown token."""

    status = 401
    title = "Unauthorized"


class Forbidden(ServiceError):
    """A valid token acting outside its role or game."""

    status = 403
    title = "Forbidden"


class Conflict(ServiceError):
    """A request the present state refuses: a stale `expected_version`, a dispute already ruled, a game too busy, ..."""

    status = 409
    title = "Conflict"


class IllegalMove(ServiceError):
    """A move the rules forbid: carries the clause id, the number of the refused attempt in the game's stream (what a
    dispute names) and its number for its seat (`seat_attempt`: what every page shows, domain.attempts.seat_numbers)."""

    status = 422
    title = "Illegal move"


    def __init__(self, detail: str, field: str | None = None, rule: str | None = None, attempt: int | None = None,
                 seat_attempt: int | None = None, under: tuple[str, dict] | None = None):
        super().__init__(detail, field=field, rule=rule)
        self.attempt, self.seat_attempt = attempt, seat_attempt
        self.under = under  # (game, options) the rules were applied under: the clause's link names their edition


class Damaged(ServiceError):
    """A stored game whose events no longer decode or apply: the operator's store is damaged (never the caller's fault)."""

    status = 500
    title = "Stored game damaged"


class TooBusy(ServiceError):
    """Too much work asked at once (the analysis jobs' bounds): `retry_after` seconds is when to ask again."""

    status = 429
    title = "Too many requests"

    def __init__(self, detail: str, retry_after: int, field: str | None = None):
        super().__init__(detail, field=field)
        self.retry_after = retry_after
