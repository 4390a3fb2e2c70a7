"""The fair-play report in two stages (issue 37, docs/fairplay.md "Two stages"): the CLI's and the desk job's `screen`.

REFEREE ONLY, like service.fairplay.facade, whose games, tasks and pool it uses. Stage one screens every decision of
every player cheaply (domain.screening.screen_decision) and, in games whose analysis reads a seat's hand (the games
of three or more seats), every decision of each pair of players who sat together, against the partner's real hand
(domain.collusion.pair_decision at the screen's precision). Stage two runs only for those the screen referred
(domain.two_stages.two_stages decides): the full test of a player (service.fairplay.facade.judge_all) and the pair
test at the full precision. Progress is told per stage: `progress(stage, done, total)`, stage "screen" then "full".
Only counts, p-values and where the weighty decisions were (game, seat, move number) leave here.
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import asdict
from itertools import combinations
from typing import Callable

from domain.analysis import analysis_of
from domain.collusion import pair_decision
from domain.fairplay import share_fields, true_states
from domain.games import spec_for
from domain.review_packet import weighty
from domain.screening import PANEL, rollouts_judge, screen_decision, screen_judge
from domain.two_stages import pair_lines, player_lines, referred_by_screen, threshold_z
from projections.knowledge import seat_knowledge

from .facade import PAIR_PER_HAND, GameInput, Settings, judge_all, run_tasks, task_list

SCREEN, FULL = "screen", "full"
Progress = Callable[[str, int, int], None]


def screen_judge_of(result: dict) -> str:
    """How a report's screen judged a candidate, in words: its `screen_judge`, or, for a report stored before the
    screen could judge by a game's glance (it has none), its rollouts."""
    return result.get("screen_judge") or rollouts_judge(result["settings"]["screen_samples"])


NOT_MEASURED = "the rate of false referrals over simulated honest players is not measured yet"


def calibrated_words(games: list[str]) -> dict[str, str]:
    """What was measured of each game's false referrals over simulated honest players (its spec's `calibrated`), by
    the game's title: the report says it beside its referrals, and the packet on its statistics page."""
    out = {}
    for game in sorted(set(games)):
        spec = spec_for(game)
        out[spec.title] = (spec.analysis.calibrated if spec.analysis is not None else "") or NOT_MEASURED
    return out


def screen_task(task: tuple) -> tuple[str, dict | None]:
    """One decision of a player at the screen's precision (a worker's unit): the name and its share, None when the
    decision is not analysed."""
    game, setup, seat, seen, move, state, seed, ordinal, settings, _, name, label, move_index = task
    ranked = screen_decision(spec_for(game), setup, seat, seen, move, state, seed, ordinal, settings.screen_worlds,
                             settings.screen_samples)
    if ranked is None:
        return name, None
    return name, {**share_fields(ranked), "game": label, "seat": seat, "move_index": move_index}


def pair_task(task: tuple) -> tuple[tuple, dict | None]:
    """One decision of a seat judged against its partner's real hand (a worker's unit): the pair and its share."""
    game, setup, seat, seen, move, state, partner, seed, ordinal, precision, pair, label, move_index = task
    worlds, samples, per_hand, glance = (*precision, False)[:4]  # the screen's precision asks for the glance
    ranked = pair_decision(spec_for(game), setup, seat, seen, move, state, partner, seed, ordinal, worlds, samples,
                           per_hand, glance)
    if ranked is None:
        return pair, None
    return pair, {**share_fields(ranked), "game": label, "seat": seat, "move_index": move_index,
                  "partner": partner, "informative": False, "matched_perfect": False, "matched_own": False}


def has_pair_test(game: str, seats: int) -> bool:
    """Whether a game's tables have pairs to test: three or more seats, and an analysis that reads a seat's hand."""
    return seats >= 3 and analysis_of(spec_for(game)).hand is not None


def pair_of(g: GameInput, a: int, b: int) -> tuple[str, str]:
    return tuple(sorted((g.names[a], g.names[b])))  # type: ignore[return-value]


def pair_tasks(games: list[GameInput], settings: Settings, only: set[tuple] | None, precision: tuple) -> list[tuple]:
    """One task a decision of each seat of each pair who sat together (both directions), for the pairs in `only`
    when given."""
    tasks = []
    for g in games:
        if not has_pair_test(g.record.game, g.record.setup.n):
            continue
        states = true_states(g.record)
        known = {seat: seat_knowledge(g.record, seat) for seat in range(g.record.setup.n)}
        for a, b in combinations(range(g.record.setup.n), 2):
            pair = pair_of(g, a, b)
            if pair[0] == pair[1] or only is not None and pair not in only:
                continue
            for seat, partner in ((a, b), (b, a)):
                seen, decisions = known[seat]
                seed = f"{settings.seed}|{g.label}|{seat}|pair"
                tasks += [(g.record.game, g.record.setup, seat, seen[:x.index], x.move, states[x.move_index], partner,
                           seed, k, precision, pair, g.label, x.move_index)
                          for k, x in enumerate(decisions) if x.move_index in states]
    return tasks


def _gather(results: list, keys) -> dict:
    out: dict = {k: [] for k in keys}
    for key, share in results:
        if share is not None:
            out[key].append(share)
    return out


def full_stage(games: list[GameInput], settings: Settings, players: set[str], pairs: set[tuple], workers: int,
               tell: Progress, executor: Executor | None) -> tuple[dict[str, list], dict[tuple, list]]:
    """Stage two, for the referred `players` and `pairs` only: the players' full test (judge_all's verdicts) and the
    pairs' test at the full precision (their shares); nothing at all when nobody was referred."""
    player_jobs = task_list(games, settings, players) if players else []
    precision = (settings.worlds, settings.perfect_samples, PAIR_PER_HAND)
    jobs = pair_tasks(games, settings, pairs, precision) if pairs else []
    size = len(player_jobs) + len(jobs)
    verdicts = judge_all(games, settings, workers, lambda d, t: tell(FULL, d, size), players, executor) \
        if players else {}
    pair_full = _gather(run_tasks(pair_task, jobs, workers, lambda d, t: tell(FULL, len(player_jobs) + d, size),
                                  executor), pairs) if pairs else {}
    return verdicts, pair_full


def screen(games: list[GameInput], settings: Settings = Settings(), workers: int = 1,
           progress: Progress | None = None, executor: Executor | None = None) -> dict:
    """The report (docs/fairplay.md "Two stages"): per player and per pair who sat together, the screen's line and,
    for the referred, the full test's, whether a panel is asked, and the reason in words; `weighty`, per referred
    player, and `pair_weighty`, per referred pair, the decisions that weigh most in the full statistic (where they
    are, never what they were: domain.review_packet.weighty) for the review packet. `executor` as for
    service.fairplay.facade.run_tasks."""
    tell = progress or (lambda stage, done, total: None)
    player_jobs = task_list(games, settings, None)  # first: names a game without analysis (BadInput)
    names = sorted({n for g in games for n in g.names})
    pairs = sorted({pair_of(g, a, b) for g in games if has_pair_test(g.record.game, g.record.setup.n)
                    for a, b in combinations(range(g.record.setup.n), 2)} - {(n, n) for n in names})
    cheap = (settings.screen_worlds, settings.screen_samples, 1, True)  # judged by the game's glance, if it has one
    pair_jobs = pair_tasks(games, settings, None, cheap)
    total = len(player_jobs) + len(pair_jobs)
    shares = run_tasks(screen_task, player_jobs, workers, lambda d, t: tell(SCREEN, d, total), executor)
    pair_shares = run_tasks(pair_task, pair_jobs, workers, lambda d, t: tell(SCREEN, len(player_jobs) + d, total),
                            executor)
    screens, players = referred_by_screen(_gather(shares, names), settings.refer)
    pair_screens, referred_pairs = referred_by_screen(_gather(pair_shares, pairs), settings.refer)
    verdicts, pair_full = full_stage(games, settings, players, referred_pairs, workers, tell, executor)
    played = {n: sum(1 for g in games if n in g.names) for n in names}
    together = {p: sum(1 for g in games if set(p) <= set(g.names)) for p in pairs}
    judges = {g.record.game: screen_judge(spec_for(g.record.game), settings.screen_samples) for g in games}
    return {"games": len(games), "settings": asdict(settings),
            "screen_judge": "; ".join(f"{spec_for(k).title}: {v}" if len(judges) > 1 else v
                                      for k, v in sorted(judges.items())),
            "calibrated": calibrated_words([g.record.game for g in games]),
            "thresholds": {"refer": settings.refer, "refer_z": threshold_z(settings.refer), "panel": PANEL,
                           "panel_z": threshold_z(PANEL)},
            "players": player_lines(screens, verdicts, played),
            "pair_test": any(has_pair_test(g.record.game, g.record.setup.n) for g in games),
            "pairs": pair_lines(pair_screens, pair_full, together),
            "weighty": {n: weighty(v) for n, v in verdicts.items()},
            "pair_weighty": [{"pair": list(p), "decisions": weighty(v)} for p, v in sorted(pair_full.items())]}


__all__ = ["screen", "screen_judge_of", "calibrated_words", "screen_task", "pair_task", "pair_tasks", "has_pair_test",
           "SCREEN", "FULL"]
