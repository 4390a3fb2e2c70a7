"""The fair-play review packet's content (issue 37 part 4, docs/fairplay.md "Review packet"). Pure, no I/O.

A packet is what a tournament director attaches to a case for a federation's fair-play panel: for each player the
report flagged, the decisions that weigh most in the statistic, and the statistics themselves. It is blind by
default: every player is "Player A", "Player B", ... and the reasons are said again with those labels, so that no
name the report knew appears in it; the director lifts the labels only by asking for names.

- `weighty` picks a player's decisions that push the statistic up most: the rank test sums (share - 1/2) over the
  decisions (domain.fairplay.rank_test), so a decision's weight is its share minus one half;
- `labels` gives each player its label, in the order the packet lists them (most suspect first);
- `blind_lines` turns a report's lines into the packet's: labels instead of names, the reasons said again.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from string import ascii_uppercase

from .fairplay import reason_of

WEIGHTY = 10  # decisions shown for each flagged player
REVIEW_NOT_VERDICT = ("A flag asks for a review of these games by people who know the game; it is never a verdict. "
                      "The numbers say how rarely honest play looks like this, not that anyone cheated.")


def weight(verdict: dict) -> float:
    """How much one judged decision pushes its player's rank statistic up (its share above one half)."""
    return verdict["rank"] - 0.5


def weighty(verdicts: list[dict], k: int = WEIGHTY) -> list[dict]:
    """The `k` decisions that push the statistic up most (a positive weight only), heaviest first; ties in the order
    the decisions were played (their game, then their move)."""
    pushing = [v for v in verdicts if weight(v) > 0]
    order = sorted(range(len(pushing)), key=lambda i: (-weight(pushing[i]), str(pushing[i].get("game")),
                                                       pushing[i].get("move_index", 0), i))
    return [{**pushing[i], "weight": round(weight(pushing[i]), 4)} for i in order[:k]]


def label(n: int) -> str:
    """The n-th label (from 0): Player A ... Player Z, Player AA, Player AB, ..."""
    letters = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        letters = ascii_uppercase[r] + letters
    return f"Player {letters}"


def ordered(lines: list[dict]) -> list[dict]:
    """The report's lines in the packet's order: flagged first, then by p-value, then by the report's own order (its
    names sorted: that order never reaches a blind packet, whose labels follow this one)."""
    return [line for _, line in sorted(enumerate(lines), key=lambda x: (not x[1]["flagged"], x[1]["p_value"], x[0]))]


def labels(lines: list[dict]) -> dict[str, str]:
    """Each player's label, by the packet's order of `lines` (`ordered`): the same report, the same labels."""
    return {line["player"]: label(i) for i, line in enumerate(ordered(lines))}


def z_of(p: float) -> float | None:
    """The standard normal score whose upper tail is `p` (the rank test's statistic), None at p = 0 or 1."""
    if not 0 < p < 1:
        return None
    return NormalDist().inv_cdf(1 - p)


def blind_lines(lines: list[dict], names: dict[str, str]) -> list[dict]:
    """The packet's lines, in its order: each report line with `label` (its name in `names`, the labels or the names
    themselves when the director lifted them), the statistic `z`, and its reason said again naming the label."""
    out = []
    for line in ordered(lines):
        shown = names[line["player"]]
        z = z_of(line["p_value"])
        out.append({**{k: v for k, v in line.items() if k not in ("player", "reason")}, "label": shown,
                    "z": None if z is None or math.isinf(z) else round(z, 2), "reason": reason_of(shown, line)})
    return out


__all__ = ["WEIGHTY", "REVIEW_NOT_VERDICT", "weight", "weighty", "label", "labels", "ordered", "z_of", "blind_lines"]
