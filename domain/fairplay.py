"""Fair-play screening for referees (issue 27 part 4, docs/fairplay.md). Pure, no I/O.

REFEREE ONLY. `perfect_information_decision` judges a decision from the TRUE full state (every hand, the stock in its
real order): it is the one function of the project that lets an analysis read cards a seat did not see, and its
answer may never reach a seat or a spectator. Everything else here works on values already computed:

- `best_of` picks a decision's best move from analysis rows (ties broken by a hash of the seed and the move, so that
  no order of the candidates, which a bot's own tie-break may follow, decides it);
- `judge` compares, at one decision, the best move given the seat's own information (domain.analysis, sampled hidden
  cards) with the best move given every card, and says which of them the seat played;
- `world_rank` places the true state among states sampled from the seat's knowledge: how well the played move does
  in each; `rank_test` and `player_report` turn a player's ranks into a p-value and a flag for review.

Under honest play a seat's move depends on the hidden cards only through what it saw, so the true state is just one
more of the states it could not tell apart, and the played move's rank there is uniform; a player whose moves keep
doing better in the true state than in the others is flagged for a referee's review, never judged. The plain sign
test between all-cards and own-information bests is shown too but flags nobody: its null depends on the player's
skill (docs/fairplay.md).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from typing import Any

from .analysis import analysis_of, play_on, same_move, weighed_pick, with_played
from .randomness import Chance
from .rank_tail import exact_tail, support_of
from .spec import GameSpec
from .wording import count, ordinal, times

ALPHA = 0.01  # the family-wise level: the chance that any honest player of one report is flagged (Bonferroni)


def perfect_information_decision(spec: GameSpec, state: Any, seat: int, chosen: dict, seed: str, ordinal: int,
                                 samples: int, glance: bool = False) -> list[dict] | None:
    """REFEREE ONLY: every candidate's value at the seat's decision, played from the TRUE full `state` (no sampling
    of hidden cards: the same rollout players as domain.analysis, with common random numbers), as rows
    ``{"move", "value", "samples"}`` (value in the game's points), or None when the decision is not analysed (one
    candidate; a move beside the turn's choice), by the same rules as domain.analysis. `glance`: each candidate is
    judged by the game's `Analysis.glance` instead of a rollout, where the game declares one (the screen's judge)."""
    a = analysis_of(spec)
    d = spec.decider
    moves = a.candidates(state, seat) if a.candidates is not None else None
    if moves is None:
        moves = [m for m in d.legal_moves(state) if m["seat"] == seat]
    if len(moves) < 2 or not any(m["type"] == chosen["type"] for m in moves):
        return None
    moves = with_played(a, state, seat, moves, chosen)
    base = f"arbiter-fairplay|{seed}|{ordinal}"
    totals = [0.0] * len(moves)
    quick = a.glance if glance else None
    for k in range(samples):
        chance = Chance(hashlib.sha256(f"{base}|chance|{k}".encode()).hexdigest())  # stateless: shared by every
        memo: dict = {}  # candidate of this sample, with the same rollout stream (common random numbers) and memo
        for i, m in enumerate(moves):
            after = d.step(state, m, chance)[1]
            rng = random.Random(f"{base}|play|{k}")
            totals[i] += quick(after, seat, rng, chance, state) if quick is not None else \
                play_on(a, after, seat, rng, chance, state, memo)
    return [{"move": {k: v for k, v in spec.codec.format_move(m).items() if k != "seat"},
             "value": round(t / samples * a.scale, 2), "samples": samples} for m, t in zip(moves, totals)]


def best_of(rows: list[dict], salt: str) -> dict:
    """The row of highest value; a tie is broken by a hash of `salt` and the move (never by the rows' order)."""
    top = max(r["value"] for r in rows)
    tied = [r for r in rows if r["value"] == top]
    return min(tied, key=lambda r: hashlib.sha256(f"{salt}|{json.dumps(r['move'], sort_keys=True)}".encode()).digest())


def _value_of(rows: list[dict], move: dict) -> float | None:
    return next((r["value"] for r in rows if same_move(r["move"], move)), None)


def advantage(rows: list[dict], move: dict) -> float:
    """How much better than the average candidate `move` did in these rows (points)."""
    return _value_of(rows, move) - sum(r["value"] for r in rows) / len(rows)


def world_rank(spec: GameSpec, setup: Any, seat: int, seen: list[dict], chosen: dict, seed: str, ordinal: int,
               worlds: int, samples: int, true_rows: list[dict], glance: bool = False,
               infer: bool = True) -> tuple[float, float, tuple[int, ...]]:
    """The honest baseline of one decision: where the played move's advantage in the TRUE state (`true_rows`, from
    perfect_information_decision) ranks among its advantages in `worlds` full states sampled from the seat's
    knowledge alone (the game's sampler, as domain.analysis), each judged the same way and with the same rollout
    streams. Returns (share, variance, support): the share is (values below + half the ties + 1/2) / (worlds + 1);
    when the seat could not tell the true state from the sampled ones, the true value is any of the worlds + 1
    values with the same chance, so the share's mean is exactly 1/2 and its variance is the mean of (share - 1/2)^2
    over those values (0 when every state gives the same advantage: such a decision tells nothing); the support is
    every value's share as an integer (domain.rank_tail). A player who sees hidden cards picks moves that do better
    in the true state than in the others, and ranks high. `glance`: every state is judged by the game's glance, as
    `true_rows` must have been (the screen). `infer`: the worlds weighed by the game's opponent model, where it states
    one (`_sampler`; False only to measure what that changes)."""
    a = analysis_of(spec)
    played = {k: v for k, v in spec.codec.format_move(chosen).items() if k != "seat"}
    values = [advantage(true_rows, played)]
    draw = _sampler(a, setup, seat, seen, infer)
    for w in range(worlds):
        world = draw(random.Random(f"arbiter-fairplay|{seed}|{ordinal}|world|{w}"))
        rows = perfect_information_decision(spec, world, seat, chosen, seed, ordinal, samples, glance)
        # the true state's rollout streams too: every world is judged with the same random numbers, so that what
        # differs between them is their cards, not the rollouts' luck (exchangeable all the same: the streams ignore
        # the cards)
        values.append(advantage(rows, played) if rows is not None else values[0])
    return rank_among(values)


def _sampler(a: Any, setup: Any, seat: int, seen: list[dict], infer: bool = True):
    """The game's sampler at one decision, rng -> state: where the game splits `sample` into `fold` and `deal`, the
    seat's knowledge is read once for all the worlds (the same states: its `sample` is `deal` of `fold`; reading
    `seen` was most of the screen's time once the glance made judging cheap). Where the game states an opponent model
    (`Analysis.evidence`) and `infer`, each world is one of `a.proposals` deals picked in proportion to how likely it
    makes the other seats' public choices (importance resampling, as domain.analysis samples): the rank test's null
    needs the worlds drawn from what the seat's observations say, its opponents' choices included (docs/fairplay.md
    "The sampler, and what the null needs")."""
    if a.fold is not None and a.deal is not None:
        return dealer(a, a.fold(setup, seat, seen), infer)
    return lambda rng: a.sample(setup, seat, seen, rng)


def dealer(a: Any, folded: Any, infer: bool = True):
    """rng -> one state dealt from `folded` knowledge (the game's `Analysis.deal`); with `infer` and an opponent model
    (`Analysis.evidence`), the one of `a.proposals` deals that the rng picks in proportion to its evidence."""
    if infer and a.evidence is not None:
        def draw(rng: random.Random) -> Any:
            states = [a.deal(folded, rng) for _ in range(a.proposals)]
            return weighed_pick(states, [a.evidence(folded, st) for st in states], rng.random())
        return draw
    return lambda rng: a.deal(folded, rng)


def rank_among(values: list[float]) -> tuple[float, float, tuple[int, ...]]:
    """(share, variance, support) of values[0] among all `values` (world_rank's rank): its mid-rank share; the mean
    of (share - 1/2)^2 over every value's share, its variance when values[0] is any of them with the same chance; and
    every value's share in units of 1 / (2 len(values)), values[0]'s first (domain.rank_tail: the exact tail)."""
    shares = [_share(values, j) for j in range(len(values))]
    variance = sum((x - 0.5) ** 2 for x in shares) / len(shares)
    return shares[0], variance, support_of(shares)


def _share(values: list[float], j: int) -> float:
    """The mid-rank share of values[j] among the others."""
    below = sum(1 for i, v in enumerate(values) if i != j and v < values[j])
    ties = sum(1 for i, v in enumerate(values) if i != j and v == values[j])
    return (below + ties / 2 + 0.5) / len(values)


def share_fields(rank: tuple) -> dict:
    """A decision's rank (world_rank's, or the pair test's) as a verdict's fields: `rank`, `rank_variance` and, when
    it has one, `rank_support` (for the exact tail)."""
    out = {"rank": rank[0], "rank_variance": rank[1]}
    if len(rank) > 2:
        out["rank_support"] = list(rank[2])
    return out


def judge(own: list[dict], perfect: list[dict], played: dict, margin: float, salt: str, rank: tuple) -> dict:
    """One decision: the own-information best (from `own` rows), the all-cards best (from `perfect` rows), whether
    the decision is informative (the two differ, and by at least `margin` points in the all-cards values), which of
    the two the `played` move (formatted, without its seat) matches, and `rank`, the honest baseline (world_rank)."""
    own_best, top = best_of(own, salt)["move"], best_of(perfect, salt)
    own_best_value = _value_of(perfect, own_best)
    gap = None if own_best_value is None else round(top["value"] - own_best_value, 2)
    informative = not same_move(own_best, top["move"]) and gap is not None and gap >= margin
    return {"informative": informative, "gap": gap, **share_fields(rank),
            "matched_own": same_move(played, own_best), "matched_perfect": same_move(played, top["move"])}


def sign_test(successes: int, trials: int) -> float:
    """One-sided exact sign test: P(X >= successes) for X ~ Binomial(trials, 1/2) (1.0 when there is no trial)."""
    if trials <= 0 or successes <= 0:
        return 1.0
    tail = sum(math.comb(trials, i) for i in range(successes, trials + 1))
    return min(1.0, tail / 2 ** trials)


def rank_test_of(verdicts: list[dict]) -> float:
    """`rank_test` over judged decisions (each {"rank", "rank_variance", "game"?, "rank_support"?})."""
    return rank_test([v["rank"] for v in verdicts], [v["rank_variance"] for v in verdicts],
                     [v.get("game") for v in verdicts], [v.get("rank_support") for v in verdicts])


def rank_test(ranks: list[float], variances: list[float], games: list[Any] | None = None,
              supports: list[Any] | None = None) -> float:
    """One-sided p-value that the ranks (world_rank shares, each of mean 1/2 and the given variance under honest
    play) are higher than honest play's: their sum by the normal approximation (1.0 when nothing varies).

    The decisions of one game share its hidden cards, so their shares need not be independent: with `games` (the game
    of each rank), the variance used is the larger of the sum of the variances and the spread of the games' own sums
    (G / (G - 1) times the sum of their squared deviations from their mean: the games are independent).

    With every decision's `supports` (rank_among's), the p-value is the larger of that one and the exact tail under
    independence (domain.rank_tail): the normal tail is too thin far out when few decisions vary and their shares are
    skewed, and the larger of the two holds under either reading."""
    normal = _normal_tail(ranks, variances, games)
    if supports and ranks and all(s is not None for s in supports):
        return max(normal, exact_tail(supports))
    return normal


def _normal_tail(ranks: list[float], variances: list[float], games: list[Any] | None) -> float:
    total = sum(variances)
    if games is not None:
        sums: dict[Any, float] = {}
        for g, r in zip(games, ranks):
            sums[g] = sums.get(g, 0.0) + r - 0.5
        if len(sums) >= 2:
            mean = sum(sums.values()) / len(sums)
            spread = len(sums) / (len(sums) - 1) * sum((x - mean) ** 2 for x in sums.values())
            total = max(total, spread)
    if not ranks or total <= 0:
        return 1.0
    z = (sum(ranks) - len(ranks) / 2) / math.sqrt(total)
    return 0.5 * math.erfc(z / math.sqrt(2))


def player_report(name: str, verdicts: list[dict], threshold: float, games: int = 0) -> dict:
    """A player's line (docs/fairplay.md): decisions judged; on the informative ones, the matches of the all-cards
    best and of the own-information best, and the plain sign test between them (shown, not used to flag); over every
    judged decision, the mean rank of the played move in the true state among the states the player could not tell
    apart (honest: 0.5), the rank test's one-sided p-value (flagged when p <= `threshold`), and the reason in words."""
    informative = [v for v in verdicts if v["informative"]]
    perfect = sum(1 for v in informative if v["matched_perfect"])
    own = sum(1 for v in informative if v["matched_own"])
    ranks = [v["rank"] for v in verdicts]
    mean = round(sum(ranks) / len(ranks), 4) if ranks else None
    p = rank_test_of(verdicts)
    flagged = bool(verdicts) and p <= threshold
    line = {"player": name, "games": games, "decisions": len(verdicts), "informative": len(informative),
            "matched_perfect": perfect, "matched_own": own, "sign_p": sign_test(perfect, perfect + own),
            "rank_mean": mean, "p_value": p, "threshold": threshold, "flagged": flagged}
    return {**line, "reason": reason_of(name, line)}


def reason_of(name: str, line: dict) -> str:
    """A player's line (player_report) said in words, naming the player `name` (a blind review packet passes its
    label: domain.review_packet)."""
    if not line["decisions"]:
        return "no decision with a choice to judge: nothing to test"
    p, threshold = line["p_value"], line["threshold"]
    said = said_of(name, line)
    if line["flagged"]:
        return (f"{said}. A lead this large happens by chance with probability {p:.2g} (at most {threshold:.2g} "
                f"flags): a referee should review these games. This is no verdict.")
    return f"{said}. Nothing beyond chance (p = {p:.2g}, flagged at or below {threshold:.2g})."


def said_of(name: str, line: dict) -> str:
    """What a player's line (player_report, with decisions) found, in words: the mean percentile of its moves in the
    real deal, and its matches where seeing every card changed the best move ("53rd", "once", "twice")."""
    said = (f"over {count(line['decisions'], 'decision')}, the moves {name} played did better in the real deal than "
            f"in deals it could not tell apart from it at the {ordinal(round(100 * line['rank_mean']))} percentile on "
            f"average (honest play: the 50th); ")
    if not line["informative"]:
        return said + "seeing every card never changed the best move"
    return (said + f"where seeing every card changed the best move ({count(line['informative'], 'decision')}) it "
            f"played the all-cards best {times(line['matched_perfect'])} and its own-information best "
            f"{times(line['matched_own'])}")


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
