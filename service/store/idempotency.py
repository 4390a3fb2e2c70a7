"""An idempotency key bound to the request it first came with.

A seat's key is kept under `stored_key` (the seat and the key: `"2:k-1"`), on the first event of the move it played
(`Game.Happened.idempotency_key`) or on the refusal of the attempt it made (`Attempts.Refused.idempotency_key`).
Sent again, the key is answered with the first answer only when the request is the same: the same seat and the same
move, compared in the game's canonical form (the decider's parsed move, cards as ints, seat included). The first
move is taken from what is stored (the event the key is on, `decider.move_of`; the refused attempt's own `move`),
never from a process's memory, so the binding holds after a restart and across workers.

Anything else a seat sends with a key it used (another move, a move that does not parse) is refused with one 422
naming `idempotency_key`, and nothing is written. Keys are each seat's own: the same key sent by another seat is
another key (a seat cannot take, or learn of, a key another seat chose; one player must never hinder another).
`expected_version` is not part of the request a key is bound to: it
is the view the move was chosen on, and a retry after a lost answer may carry a newer one; the first answer is given
again whatever it says (as before: a used key is looked at before the version).
"""

from __future__ import annotations

from service.errors import BadInput

DIFFERENT_REQUEST = ("idempotency_key: this key was first used for a different request (another move); send a new key "
                     "with a new request")


def stored_key(seat: int, key: str | None) -> str | None:
    """The form a seat's key is stored in, the seat and the key (so the same key from another seat is another key)."""
    return None if key is None else f"{seat}:{key}"


def refuse_different() -> BadInput:
    """The one refusal of a key reused for a different request (no word of what the first one was)."""
    return BadInput(DIFFERENT_REQUEST, field="idempotency_key")


def same_request(first: dict | None, move: dict | None) -> bool:
    """Whether a move (canonical: as the decider parses it, seat included) is the move first sent with the key;
    an unknown first move (None) or an unparsable new one (None) is never the same."""
    return first is not None and move is not None and first == move
