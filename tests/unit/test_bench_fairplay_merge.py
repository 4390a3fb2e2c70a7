"""bench.fairplay_games --merge: the honest players of runs of distinct seeds pooled into one calibration (the
10,000-player check of docs/fairplay.md is run in chunks)."""

from __future__ import annotations

import json

import pytest

from bench.fairplay_games import merged


def _run(path, seed: str, ps: list[float], normal_rates: dict) -> str:
    line = {"game": "small-battle", "seed": seed, "honest": {"players": len(ps)}, "honest_p_values": sorted(ps),
            "honest_normal_tail_only": normal_rates}
    path.write_text(json.dumps(line) + "\n")
    return str(path)


def test_merging_pools_every_honest_player_and_counts_referrals_at_one_in_a_thousand(tmp_path):
    a = _run(tmp_path / "a.json", "s0", [0.0005, 0.2, 0.6, 0.9], {"p<=0.1": 0.0, "p<=0.001": 0.25})
    b = _run(tmp_path / "b.json", "s1", [0.04, 0.5, 0.0011], {"p<=0.1": 0.6667, "p<=0.001": 0.0})
    out = merged([a, b])["small-battle"]
    assert out["players"] == 7 and out["runs"] == 2
    assert out["referred"] == 1 and out["p<=0.001"] == round(1 / 7, 5)
    assert out["p<=0.1"] == round(3 / 7, 5) and out["p<=0.05"] == round(3 / 7, 5) and out["p<=0.01"] == round(2 / 7, 5)
    assert out["normal_tail_only"] == {"p<=0.1": round(2 / 7, 5), "p<=0.001": round(1 / 7, 5)}
    assert out["smallest_p"] == 0.0005
    assert out["referred_upper95"] == pytest.approx(0.5207, abs=1e-3)  # exact one-sided binomial bound: 1 in 7


def test_runs_with_plain_worlds_are_pooled_apart_and_a_seed_given_twice_is_refused(tmp_path):
    a = _run(tmp_path / "a.json", "s0", [0.3, 0.6], {"p<=0.1": 0.0})
    b = tmp_path / "b.json"
    b.write_text(json.dumps({**json.loads(open(a).read()), "seed": "s1", "infer": False}) + "\n")
    out = merged([a, str(b)])
    assert out["small-battle"]["players"] == 2 and out["small-battle (plain worlds)"]["players"] == 2
    with pytest.raises(SystemExit, match="s0"):
        merged([a, a])
