"""The fair-play report in two stages (issue 37, docs/fairplay.md "Two stages"). Pure, no I/O.

REFEREE ONLY in what it is fed (shares computed from the TRUE state). Stage one, the screen (domain.screening: the
rank test made cheap), is run over every player of the report, and over every pair of players who sat at a table
together where the game has a pair test (domain.collusion, at the screen's precision). Stage two, the full test
(domain.fairplay's rank test at the report's precision, with the own-information analysis; the pair test with more
hands, states and rollouts), is run only for those the screen refers: a screen p-value at or below REFER. Stage two
asks a fair-play panel to review when its p-value is at or below PANEL (about 4.75 sigma). Neither is a verdict.

`referred_by_screen` says who stage two is for (the service runs it, on a pool, for those only), and `staged` refuses a
stage-two line for anyone else. A false call for a panel needs both stages' p-values small, so for an honest
player its chance is at most PANEL (the stage-two p-value alone is that rare), whatever the screen does; the screen
costs only power: a player it does not refer is never tested in full. The two stages read the same games, so a
referred player's stage-two p-value is not uniform given the referral: it is a second, sharper look at the same
evidence, not new evidence, and the report says both.
"""

from __future__ import annotations

from typing import Callable, Hashable

from .fairplay import player_report, rank_test_of, said_of
from .screening import PANEL, REFER, sigmas
from .wording import count, one_in, ordinal

# {"rank", "rank_variance", "game", "rank_support"?}: one judged decision's share (domain.fairplay.world_rank)
Shares = list[dict]


def z_score(p: float, decisions: int) -> float | None:
    """The statistic as a normal score (sigmas, two decimals), None when nothing was tested (no decision, or p = 1)."""
    return None if not decisions or p >= 1 else sigmas(p)


def threshold_z(threshold: float) -> float | None:
    """A threshold as a normal score (sigmas), None for a threshold of 1 (everyone passes: no score)."""
    return None if threshold >= 1 else sigmas(threshold)


def stage_line(shares: Shares, threshold: float) -> dict:
    """One stage's rank test over judged decisions: how many, their mean share (honest: 0.5), the statistic z, the
    one-sided p-value (domain.fairplay.rank_test, each game one cluster), the threshold and its z, and whether the
    p-value is at or below it (`passed`)."""
    ranks = [v["rank"] for v in shares]
    p = rank_test_of(shares)
    return {"decisions": len(ranks), "rank_mean": round(sum(ranks) / len(ranks), 4) if ranks else None,
            "z": z_score(p, len(ranks)), "p_value": p, "threshold": threshold, "threshold_z": threshold_z(threshold),
            "passed": bool(ranks) and p <= threshold}


def full_player_line(name: str, verdicts: list[dict], panel: float = PANEL) -> dict:
    """Stage two of a player: domain.fairplay.player_report's counts and rank test, with the statistic z, the panel's
    threshold and its z, and `passed` (a panel is asked)."""
    line = player_report(name, verdicts, panel)
    keep = ("decisions", "informative", "matched_perfect", "matched_own", "sign_p", "rank_mean", "p_value", "threshold")
    return {**{k: line[k] for k in keep}, "z": z_score(line["p_value"], line["decisions"]),
            "threshold_z": threshold_z(panel), "passed": line["flagged"]}


def staged(who: dict, screen: dict, full: dict | None) -> dict:
    """A line of the report (`who`: {"player": name} or {"pair": [a, b]}, with its games): both stages, whether the
    screen referred it, whether stage two asks a panel. A line the screen did not refer has no stage two; giving one
    is refused (ValueError): the rule is that only the referred are tested in full."""
    if full is not None and not screen["passed"]:
        raise ValueError("stage two is run only for those the screen refers")
    referred = screen["passed"]
    return {**who, "screen": screen, "referred": referred, "full": full,
            "panel": bool(full is not None and full["passed"])}


def screen_said(screen: dict) -> str:
    """Stage one in words: 'not referred by the screen (p = 0.42, z = -0.2 over 60 decisions; it refers at or below
    1 in 1,000)' or 'referred by the screen (...)'."""
    z = "" if screen["z"] is None else f", z = {screen['z']:.2f}"
    verb = "referred" if screen["passed"] else "not referred"
    return (f"{verb} by the screen (p = {screen['p_value']:.2g}{z} over {count(screen['decisions'], 'decision')}; "
            f"it refers at or below {one_in(screen['threshold'])})")


def panel_said(full: dict) -> str:
    """Stage two's conclusion in words: a panel asked, or not, with the p-value, z and the panel's threshold."""
    z = "" if full["z"] is None else f", z = {full['z']:.2f}"
    sigma = "" if full["threshold_z"] is None else f", {full['threshold_z']:.2f} sigma"
    at = f"p at or below {one_in(full['threshold'])}{sigma}"
    if full["passed"]:
        return (f"A lead this large happens by chance with probability {full['p_value']:.2g}{z} (a panel is asked at "
                f"{at}): ask a fair-play panel to review these games. A flag asks for a review; it is never a verdict.")
    return (f"Not enough to ask a panel (p = {full['p_value']:.2g}{z}; a panel is asked at {at}): the referee may "
            f"look at the games; this is no finding.")


def _reason(line: dict, test: str, found: Callable[[dict], str]) -> str:
    """A staged line in words: the screen's finding, then, for the referred, `test`'s finding (`found` of stage two's
    line) and whether a panel is asked."""
    screen, full = line["screen"], line["full"]
    if not screen["decisions"]:
        return "no decision with a choice to judge: nothing to screen"
    if full is None:
        return screen_said(screen)
    return f"{screen_said(screen)}; {test}: {found(full)}. {panel_said(full)}"


def player_reason(name: str, line: dict) -> str:
    """A player's staged line said in words, naming the player `name` (a blind packet passes its label)."""
    return _reason(line, "the full test",
                   lambda full: said_of(name, full) if full["decisions"] else "no decision with a choice to judge")


def pair_reason(names: str, line: dict) -> str:
    """A pair's staged line said in words (`names`: "Ann and Bob", or their labels)."""
    return _reason(line, "the full pair test", lambda full: (
        f"over {count(full['decisions'], 'decision')} of the two (each judged against the other's real hand), "
        f"the moves {names} played did better with the partner's real hand than with hands drawn from what they "
        f"saw at the {ordinal(round(100 * (full['rank_mean'] or 0.5)))} percentile on average (honest play: the "
        f"50th)"))


def referred_by_screen(screened: dict[Hashable, Shares], refer: float = REFER) -> tuple[dict[Hashable, dict], set]:
    """Stage one: each one's screen line (`stage_line` at `refer`) from its screened shares, and the set the screen
    refers to stage two (a p-value at or below `refer`): the only ones stage two may be run for (`staged`)."""
    lines = {k: stage_line(v, refer) for k, v in screened.items()}
    return lines, {k for k, line in lines.items() if line["passed"]}


def player_lines(screens: dict[str, dict], fulls: dict[str, list[dict]], games: dict[str, int],
                 panel: float = PANEL) -> list[dict]:
    """Every player's staged line, by name, with its reason: `fulls` holds stage two's verdicts (domain.fairplay.judge)
    of the referred players."""
    out = []
    for name in sorted(screens):
        full = full_player_line(name, fulls[name], panel) if name in fulls else None
        line = staged({"player": name, "games": games.get(name, 0)}, screens[name], full)
        out.append({**line, "reason": player_reason(name, line)})
    return out


def pair_lines(screens: dict[tuple, dict], fulls: dict[tuple, Shares], games: dict[tuple, int],
               panel: float = PANEL) -> list[dict]:
    """Every pair's staged line (pairs of names, sorted), with its reason: `fulls` holds stage two's shares of the
    referred pairs (domain.collusion.pair_decision at the full precision)."""
    out = []
    for pair in sorted(screens):
        full = stage_line(fulls[pair], panel) if pair in fulls else None
        line = staged({"pair": list(pair), "games": games.get(pair, 0)}, screens[pair], full)
        out.append({**line, "reason": pair_reason(" and ".join(pair), line)})
    return out


__all__ = ["stage_line", "threshold_z", "full_player_line", "staged", "referred_by_screen", "player_lines",
           "pair_lines", "player_reason", "pair_reason", "screen_said", "panel_said", "REFER", "PANEL"]
