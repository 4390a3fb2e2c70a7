"""Fair-play screening for referees (issue 27 part 4, docs/fairplay.md). Pure, no I/O.

REFEREE ONLY. `perfect_information_decision` judges a decision from the TRUE full state (every hand, the stock in its
real order): it is the one function of the project that lets an analysis read cards a seat did not see, and its
answer may never reach a seat or a spectator. Everything else here works on values already computed:

- `best_of` picks a decision's best move from analysis rows (ties broken by a hash of the seed and the move, so that
  no order of the candidates, which a bot's own tie-break may follow, decides it);
- `judge` compares, at one decision, the best move given the seat's own information (domain.analysis, sampled hidden
  cards) with the best move given every card, and says which of them the seat played;
- `sign_test` and `player_report` turn a player's judged decisions into a p-value and a flag for review.

Under honest play a seat's move depends on the hidden cards only through what it saw, so on the decisions where the
two bests differ ("informative" decisions) it matches the all-cards best no more often than its own-information best
(docs/fairplay.md says when this holds and how it was checked); a player who matches the all-cards best far more
often is flagged for a referee's review, never judged.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from typing import Any

from .analysis import analysis_of, same_move
from .randomness import Chance
from .spec import GameSpec

ALPHA = 0.01  # the family-wise level: the chance that any honest player of one report is flagged (Bonferroni)


def perfect_information_decision(spec: GameSpec, state: Any, seat: int, chosen: dict, seed: str, ordinal: int,
                                 samples: int) -> list[dict] | None:
    """REFEREE ONLY: every candidate's value at the seat's decision, played from the TRUE full `state` (no sampling
    of hidden cards: the same rollout players as domain.analysis, with common random numbers), as rows
    ``{"move", "value", "samples"}`` (value in the game's points), or None when the decision is not analysed (one
    candidate; a move beside the turn's choice), by the same rules as domain.analysis."""
    a = analysis_of(spec)
    d = spec.decider
    moves = a.candidates(state, seat) if a.candidates is not None else None
    if moves is None:
        moves = [m for m in d.legal_moves(state) if m["seat"] == seat]
    if len(moves) < 2 or not any(m["type"] == chosen["type"] for m in moves):
        return None
    if not any(same_move(m, chosen) for m in moves):
        moves = moves + [dict(chosen, seat=seat)]
    base = f"arbiter-fairplay|{seed}|{ordinal}"
    totals = [0.0] * len(moves)
    for k in range(samples):
        chance = Chance(hashlib.sha256(f"{base}|chance|{k}".encode()).hexdigest())  # stateless: shared by every
        for i, m in enumerate(moves):  # candidate of this sample, with the same rollout stream (common random numbers)
            after = d.step(state, m, chance)[1]
            totals[i] += a.playout(after, seat, random.Random(f"{base}|play|{k}"), chance)
    return [{"move": {k: v for k, v in d.format_move(m).items() if k != "seat"},
             "value": round(t / samples * a.scale, 2), "samples": samples} for m, t in zip(moves, totals)]


def best_of(rows: list[dict], salt: str) -> dict:
    """The row of highest value; a tie is broken by a hash of `salt` and the move (never by the rows' order)."""
    top = max(r["value"] for r in rows)
    tied = [r for r in rows if r["value"] == top]
    return min(tied, key=lambda r: hashlib.sha256(f"{salt}|{json.dumps(r['move'], sort_keys=True)}".encode()).digest())


def _value_of(rows: list[dict], move: dict) -> float | None:
    return next((r["value"] for r in rows if same_move(r["move"], move)), None)


def chance_of_matching(spec: GameSpec, setup: Any, seat: int, seen: list[dict], chosen: dict, seed: str,
                       ordinal: int, worlds: int, samples: int, salt: str) -> float:
    """The honest baseline of one decision: the chance that the move played is the all-cards best, over the hidden
    cards the SEAT could not tell apart. `worlds` full states are sampled from its knowledge alone (the game's
    sampler, as domain.analysis), each judged by `perfect_information_decision` as the true state is; the share of
    them where `chosen` comes out best, smoothed to (hits + 1/2) / (worlds + 1) so that it is never 0 or 1."""
    a = analysis_of(spec)
    played = {k: v for k, v in spec.decider.format_move(chosen).items() if k != "seat"}
    hits = 0
    for w in range(worlds):
        world = a.sample(setup, seat, seen, random.Random(f"arbiter-fairplay|{seed}|{ordinal}|world|{w}"))
        rows = perfect_information_decision(spec, world, seat, chosen, f"{seed}|world|{w}", ordinal, samples)
        if rows is not None and same_move(best_of(rows, salt)["move"], played):
            hits += 1
    return (hits + 0.5) / (worlds + 1)


def judge(own: list[dict], perfect: list[dict], played: dict, margin: float, salt: str, chance: float) -> dict:
    """One decision: the own-information best (from `own` rows), the all-cards best (from `perfect` rows), whether
    the decision is informative (the two differ, and by at least `margin` points in the all-cards values), which of
    the two the `played` move (formatted, without its seat) matches, and `chance`, the honest baseline of matching
    the all-cards best (chance_of_matching)."""
    own_best, top = best_of(own, salt)["move"], best_of(perfect, salt)
    own_best_value = _value_of(perfect, own_best)
    gap = None if own_best_value is None else round(top["value"] - own_best_value, 2)
    informative = not same_move(own_best, top["move"]) and gap is not None and gap >= margin
    return {"informative": informative, "gap": gap, "chance": chance,
            "matched_own": same_move(played, own_best), "matched_perfect": same_move(played, top["move"])}


def sign_test(successes: int, trials: int) -> float:
    """One-sided exact sign test: P(X >= successes) for X ~ Binomial(trials, 1/2) (1.0 when there is no trial)."""
    if trials <= 0 or successes <= 0:
        return 1.0
    tail = sum(math.comb(trials, i) for i in range(successes, trials + 1))
    return min(1.0, tail / 2 ** trials)


def poisson_binomial_tail(successes: int, chances: list[float]) -> float:
    """P(X >= successes) for X the number of successes of independent trials with these chances (exact)."""
    if successes <= 0:
        return 1.0
    dist = [1.0]  # dist[j]: the chance of j successes so far
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for j, q in enumerate(dist):
            nxt[j] += q * (1 - p)
            nxt[j + 1] += q * p
        dist = nxt
    return min(1.0, max(0.0, sum(dist[successes:])))


def player_report(name: str, verdicts: list[dict], threshold: float, games: int = 0) -> dict:
    """A player's line (docs/fairplay.md): decisions judged; on the informative ones, the matches of the all-cards
    best and of the own-information best, and the plain sign test between them (shown, not used to flag); over every
    judged decision, how often the move played was the all-cards best against the honest baseline's expectation,
    and the exact one-sided p-value of that (flagged when p <= `threshold`), with the reason in words."""
    informative = [v for v in verdicts if v["informative"]]
    perfect = sum(1 for v in informative if v["matched_perfect"])
    own = sum(1 for v in informative if v["matched_own"])
    observed = sum(1 for v in verdicts if v["matched_perfect"])
    chances = [v["chance"] for v in verdicts]
    expected = round(sum(chances), 2)
    p = poisson_binomial_tail(observed, chances)
    flagged = bool(verdicts) and p <= threshold
    if not verdicts:
        reason = "no decision with a choice to judge: nothing to test"
    else:
        said = (f"{name} played the all-cards best move at {observed} of {len(verdicts)} decisions, where play "
                f"knowing only its own cards would do so {expected:.1f} times on average")
        if flagged:
            reason = (f"{said}; a surplus this large happens by chance with probability {p:.2g} (at most "
                      f"{threshold:.2g} flags): a referee should review these games. This is no verdict.")
        else:
            reason = f"{said}; nothing beyond chance (p = {p:.2g}, flagged at or below {threshold:.2g})"
    return {"player": name, "games": games, "decisions": len(verdicts), "informative": len(informative),
            "matched_perfect": perfect, "matched_own": own, "sign_p": sign_test(perfect, perfect + own),
            "perfect_matches": observed, "expected_matches": expected, "p_value": p, "threshold": threshold,
            "flagged": flagged, "reason": reason}


def report(verdicts_by_player: dict[str, list[dict]], games_by_player: dict[str, int] | None = None,
           alpha: float = ALPHA) -> list[dict]:
    """Every player's line (player_report), each tested at alpha / the number of players tested (Bonferroni: the
    chance that any honest player of the report is flagged stays at most alpha)."""
    names = sorted(verdicts_by_player)
    threshold = alpha / max(1, len(names))
    games = games_by_player or {}
    return [player_report(n, verdicts_by_player[n], threshold, games.get(n, 0)) for n in names]


def true_states(record: Any, seats: set[int] | None = None) -> dict[int, Any]:
    """REFEREE ONLY: the true full state before each move of `seats` (all seats when None), by move index, from a
    replay of a validated record (domain.records.Record) on its bare decider; stops at a move the rules refuse."""
    from .rules import RuleViolation

    d = record.decider
    chance = record.chance
    state = d.initial_state(record.setup)
    for e in d.start(record.setup, chance):
        state = d.evolve(state, e)
    out = {}
    for i, move in enumerate(record.moves):
        if seats is None or move["seat"] in seats:
            out[i] = state
        try:
            state = d.step(state, move, chance)[1]
        except RuleViolation:
            out.pop(i, None)
            break
    return out
