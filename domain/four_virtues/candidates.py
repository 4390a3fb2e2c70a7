"""The Four Virtues' analysis candidates (docs/analysis.md, issue 36 part 3): every legal move, the virtues' choices
in full, grouped where two choices are one.

A meld with a face card is listed with every virtue choice the judge allows (FV-3.3 each lowering, FV-3.4 each
`force`, FV-3.5 each `draw`, FV-5.1), and without one. Two of them are the same move in effect: hearts forcing 0 and
hearts forcing nothing said (nothing is owed either way), spades drawing 0 and spades drawing nothing said; `key`
puts each pair in one group, and `decider.step` leaves the same state after either (checked by
tests/unit/test_analysis_candidates.py). An owed discard (FV-3.4) that can be made more than `MAX_FORCED` ways is not
analysed (the opponent's answer, up to C(10, 5) = 252 ways, each a different hand). The move played always joins the
candidates (domain.analysis puts it in place of its group's candidate, or adds it).
"""

from __future__ import annotations

from .moves import legal_moves
from .state import State

MAX_FORCED = 12  # owed-discard ways analysed at most


def key(state: State, seat: int, move: dict):
    """A move's group: the move with a zero `force` or `draw` left out (the same move in effect), its cards as a
    multiset (their order is free), as a hashable."""
    kept = {k: v for k, v in move.items() if k != "seat" and not (k in ("force", "draw") and v == 0)}
    return tuple(sorted((k, tuple(sorted(v)) if isinstance(v, list) else tuple(sorted(v.items())) if isinstance(v, dict)
                         else v) for k, v in kept.items()))


def candidates(state: State, seat: int) -> list[dict] | None:
    """Every legal move of the seat, one a group (`key`: the first listed); none (not analysed) for an owed discard
    of more than MAX_FORCED ways."""
    moves = [m for m in legal_moves(state) if m["seat"] == seat]
    if any(m["type"] == "forced_discard" for m in moves) and len(moves) > MAX_FORCED:
        return []
    out, groups = [], set()
    for m in moves:
        group = key(state, seat, m)
        if group not in groups:
            groups.add(group)
            out.append(m)
    return out
