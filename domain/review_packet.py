"""The fair-play review packet's content (issue 37 part 4, docs/fairplay.md "Review packet"). Pure, no I/O.

A packet is what a tournament director attaches to a case for a federation's fair-play panel: for each player (and
pair) the report's screen referred to its full test (domain.two_stages), both stages' statistics and thresholds, and
the decisions that weigh most in the full statistic. Nobody the screen did not refer is in it. It is blind by
default: every player is "Player A", "Player B", ... and the reasons are said again with those labels, so that no
name the report knew appears in it; the director lifts the labels only by asking for names.

- `weighty` picks a player's decisions that push the statistic up most: the rank test sums (share - 1/2) over the
  decisions (domain.fairplay.rank_test), so a decision's weight is its share minus one half;
- `labels` gives each referred player its label, in the order the packet lists them (most suspect first);
- `blind_lines` and `blind_pairs` turn a report's lines into the packet's: the referred only, labels instead of
  names, the reasons said again.
"""

from __future__ import annotations

from string import ascii_uppercase

from .two_stages import pair_reason, player_reason

WEIGHTY = 10  # decisions shown for each referred player (or pair)
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


def order_key(line: dict) -> tuple:
    """A staged line's place in the packet (domain.two_stages): a panel asked first, then by the full test's p-value,
    then by the screen's."""
    full = line.get("full")
    return (not line["panel"], full["p_value"] if full else 1.0, line["screen"]["p_value"])


def ordered(lines: list[dict]) -> list[dict]:
    """The referred lines in the packet's order (`order_key`, then the report's own order: its names sorted, an order
    that never reaches a blind packet, whose labels follow this one). Lines the screen did not refer are left out:
    the packet is about the referred only."""
    chosen = [(i, line) for i, line in enumerate(lines) if line["referred"]]
    return [line for _, line in sorted(chosen, key=lambda x: (order_key(x[1]), x[0]))]


def labels(lines: list[dict], pairs: list[dict] = ()) -> dict[str, str]:
    """Each referred player's label, by the packet's order of `lines` (`ordered`), then each member of a referred pair
    not labelled yet, by the pairs' order: the same report, the same labels. Nobody else gets one."""
    out: dict[str, str] = {}
    for line in ordered(lines):
        out[line["player"]] = label(len(out))
    for pair in ordered(list(pairs)):
        for name in pair["pair"]:
            out.setdefault(name, label(len(out)))
    return out


def blind_lines(lines: list[dict], names: dict[str, str]) -> list[dict]:
    """The packet's player lines, referred only, in its order: each staged line with `label` (its name in `names`,
    a label or the name itself when the director lifted them) and its reason said again naming the label."""
    return [{**{k: v for k, v in line.items() if k not in ("player", "reason")}, "label": names[line["player"]],
             "reason": player_reason(names[line["player"]], line)} for line in ordered(lines)]


def blind_pairs(pairs: list[dict], names: dict[str, str]) -> list[dict]:
    """The packet's pair lines, referred only, in its order, as `blind_lines` (`label`: "Player A and Player C")."""
    out = []
    for line in ordered(pairs):
        shown = " and ".join(names[n] for n in line["pair"])
        out.append({**{k: v for k, v in line.items() if k not in ("pair", "reason")}, "label": shown,
                    "members": [names[n] for n in line["pair"]], "reason": pair_reason(shown, line)})
    return out


__all__ = ["WEIGHTY", "REVIEW_NOT_VERDICT", "weight", "weighty", "label", "labels", "ordered", "blind_lines",
           "blind_pairs"]
