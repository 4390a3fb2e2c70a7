"""The chain check: a game's hash chain (optionally against a head a player or referee kept), every damage its row
decoder found, the chain of its refused attempts (their own stream, domain.attempts), and every dispute that names a
refused attempt the store no longer holds."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.attempts import attempts_id
from domain.audit import ChainReport, verify_chain
from domain.game import Game

from .decoded import Damage, DecodedGame
from .row_shapes import ATTEMPT_EVENTS
from .stored_rows import read_stream


def attempts_damage(app: Any, game_id: UUID, rows: list | None = None, named: list | None = None) -> list[Damage]:
    """A damaged row or a break in the chain of the game's refused attempts, if any, and each dispute of `named`
    ((dispute number, attempt number, version filed at)) whose attempt is not stored (`rows`: read in bulk already;
    [] when none is stored)."""
    reading = read_stream(app, attempts_id(game_id), ATTEMPT_EVENTS, name="refused attempt entry",
                          rows=rows) if rows != [] else None
    out = []
    if reading is not None and reading.damage:
        out.append(Damage(None, reading.damage[0].problem))
    elif reading is not None:
        report = verify_chain(reading.events)
        if not report.ok:
            out.append(Damage(None, f"the refused attempts' chain breaks at entry {report.broken_at} (refused attempt "
                                    f"{report.broken_at - 1}): {report.problem}"))
    held = {row.version - 1 for row in reading.rows} if reading is not None else set()  # entry 1 opens the stream
    for number, attempt, filed_at in named or ():
        if attempt not in held:
            out.append(Damage(filed_at, f"dispute {number} names refused attempt {attempt}, which the store no longer "
                                        f"holds (it holds {len(held - {0})} refused attempt(s) of this game): "
                                        "refused attempts were deleted"))
    return out


def disputed_attempts(decoded: DecodedGame) -> list[tuple[int, int, int]]:
    """(dispute number, attempt number, version filed at) of every dispute of a refused attempt."""
    return [(row.fields["number"], row.fields["attempt"], row.version) for row in decoded.rows
            if row.kind is Game.DisputeFiled and isinstance(row.fields.get("attempt"), int)]


def chain_report(app: Any, game_id: UUID, decoded: DecodedGame, kept_head: str | None, kept_length: int | None,
                 attempt_rows: list | None = None) -> dict:
    """The chain's report: `ok`, its length and head, `broken_at` and `problem` for the first break of the hash chain
    (else the first damage found), and every damage in `problems` at its version (`attempt_rows`: the attempts
    stream's rows read in bulk already)."""
    if decoded.plain and kept_head is None:  # the plain decoder followed every link as it decoded the rows
        report = ChainReport(True, len(decoded.rows), decoded.hashes[-1])
    elif decoded.unreadable is None:
        report = verify_chain(decoded.events, kept_head, kept_length, decoded.hashes)
    else:  # the log cannot be read to its end: a kept head cannot be compared with it
        report = verify_chain(decoded.events, hashes=decoded.hashes)
    damage = list(decoded.damage)
    named = disputed_attempts(decoded)
    if attempt_rows != [] or named:  # none read in bulk and none named: none refused
        damage.extend(attempts_damage(app, game_id, attempt_rows, named))
    problems = sorted(damage, key=lambda d: (d.version is None, d.version or 0))
    if not report.ok:
        problems.insert(0, Damage(report.broken_at, report.problem))
    first = problems[0] if problems else None
    if not report.ok and decoded.unreadable and decoded.unreadable.version < report.broken_at:
        first = decoded.unreadable
    out = report.as_dict()
    if first is not None:
        out.update(ok=False, broken_at=first.version, problem=first.problem)
    out["problems"] = [d.as_dict() for d in problems]
    return out
