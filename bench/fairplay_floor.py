"""How few games ANY test needs to catch a Small Battle peeker (issue 37, docs/fairplay.md "The floor").

What peeking buys in Small Battle is a strike that removes a card: a seat that sees the enemy formation names a card
below the number drawn whenever one remains. The evidence a referee has, decision by decision, is therefore at most
whether each strike removed a card, against the chance `q` that the strike removes one for a seat that knows only
what it saw. Knowing `q` exactly (here: estimated over --worlds formations drawn from the seat's knowledge, the
analysis' own sampler), the best test of a share `rate` of peeked strikes weighs each strike by the likelihood ratio.
A peeker removes a card whenever one below the number remains, which for that seat's knowledge happens with chance
`a` >= q (estimated over the same worlds), so a strike removes one with chance q + rate (a - q); for small effects
the test's noncentrality per strike is rate^2 (a - q)^2 / (q (1 - q)). Summed over a game's strikes and averaged over
games, it gives the games any test needs for 80% power at a one-sided level:

    games = (z_level + z_0.80)^2 / (mean noncentrality^2 a game)

No screen, no rollout player and no number of worlds can do better with these strikes: it is the floor the screen's
measured power is compared with. The strikes are those of the honest heuristic bot (seat 0) against the heuristic
bot; `q` is the chance of ITS chosen strike. `q` is clipped to [1/(W+1), W/(W+1)].

Usage:  python -m bench.fairplay_floor [--games N] [--worlds W] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics

from domain.fairplay import true_states
from domain.games import spec_for
from domain.records import parse
from domain.screening import PANEL, REFER, z_of
from domain.small_battle.clauses import removes, strike_value
from projections.knowledge import seat_knowledge
from tests.fairplay_players import Player, play_game

RATES = (1.0, 0.25, 0.1)
POWER_Z = 0.8416  # 80% power


def game_strikes(label: str, worlds: int) -> list[tuple[float, float]]:
    """(q, a) for each strike of seat 0 with a number drawn, in one game of heuristic bots."""
    spec = spec_for("small-battle")
    record = parse(play_game("small-battle", label, [Player("heuristic"), Player("heuristic")]))
    states = true_states(record, {0})
    seen, decisions = seat_knowledge(record, 0)
    out = []
    for k, x in enumerate(decisions):
        state = states.get(x.move_index)
        if state is None or x.move["type"] != "strike" or strike_value(state.drawn) is None:
            continue
        position = x.move["position"]
        hits = anys = 0
        for w in range(worlds):
            world = spec.analysis.sample(record.setup, 0, seen[:x.index], random.Random(f"floor|{label}|{k}|{w}"))
            hits += removes(state.drawn, world.formations[1][position])
            anys += any(removes(state.drawn, world.formations[1][p]) for p in state.remaining(1))
        q = min(max(hits / worlds, 1 / (worlds + 1)), worlds / (worlds + 1))
        out.append((q, max(q, anys / worlds)))
    return out


def noncentrality(strikes: list[tuple[float, float]], rate: float) -> float:
    """The squared noncentrality of one game's strikes for the likelihood-ratio test of a `rate` peeker."""
    return sum(rate * rate * (a - q) ** 2 / (q * (1 - q)) for q, a in strikes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--worlds", type=int, default=64)
    parser.add_argument("--seed", default="bench-fairplay-floor")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games = [game_strikes(f"{args.seed}|{i}", args.worlds) for i in range(args.games)]
    out = {"games": args.games, "worlds": args.worlds, "seed": args.seed,
           "strikes_a_game": round(statistics.mean(len(g) for g in games), 2),
           "mean_q": round(statistics.mean(q for g in games for q, _ in g), 3),
           "mean_a": round(statistics.mean(a for g in games for _, a in g), 3), "floor": {}}
    for rate in RATES:
        per_game = statistics.mean(noncentrality(g, rate) for g in games)
        out["floor"][f"{rate:g}"] = {level: round((z_of(p) + POWER_Z) ** 2 / per_game, 1)
                                     for level, p in (("refer", REFER), ("panel", PANEL))}
    if args.json:
        print(json.dumps(out))
        return
    print(f"Small Battle, {args.games} games of heuristic bots, q over {args.worlds} worlds: "
          f"{out['strikes_a_game']} strikes a game, mean q {out['mean_q']} (the honest strike removes a card), "
          f"mean a {out['mean_a']} (some card below the number remains)")
    for rate, f in out["floor"].items():
        print(f"  peek {float(rate):.0%}: any test needs >= {f['refer']} games for 80% power at 1 in 1,000 "
              f"(>= {f['panel']} at 1 in 1,000,000)")


if __name__ == "__main__":
    main()
