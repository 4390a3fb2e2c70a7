"""Mutation testing of each game's rules package against that game's own unit tests (docs/mutation.md).

For each game, mutmut 3 mutates ``domain/<game>/*.py`` only and runs only that game's unit tests:
``tests/unit/test_<game>_*.py`` and, for El Royale, ``tests/unit/test_worked_examples.py``,
``test_analysis_candidates.py`` and ``test_analysis_inference.py``. The game's cases of
the generic ``tests/unit/test_registry_properties.py`` join with --with-registry: they take some 14 s each under
mutmut (Small Battle's lists 2 x 40,320 arrangements at every start), so every mutant that they reach and that
survives costs half a minute, hours for a game on this machine's shared cores. A mutant is killed when a test fails on it (mutmut runs
only the tests whose run reached the mutated function). The score is killed / all mutants, where killed
counts mutmut's "killed" and "timeout" (a test run that never ends is a failing run); "survived",
"no tests" (no test reaches the function) and "suspicious" are not killed.

mutmut reads its configuration from the working directory (pyproject.toml's [tool.mutmut] or setup.cfg)
and has no option to pass it on the command line, so each game runs in its own directory,
``build/mutation/<game>/``: links to ``domain``, ``tests`` and ``bench``, and a pyproject.toml holding the project's
[tool.pytest.ini_options] and that game's [tool.mutmut]. mutmut copies it into that directory's ``mutants/``
(its results stay there for ``mutmut show NAME`` or ``mutmut browse`` run in that directory). A measurement
starts from a fresh copy unless --resume is given; --recheck keeps the copy and the results and runs again only
the mutants not killed last time (after new tests: mutmut finds the new tests and learns which functions they
reach), refusing when the game's package changed since (the copy would be stale). Hypothesis runs derandomized and without shrinking
(HYPOTHESIS_PROFILE=mutation, tests/conftest.py), so a mutant is killed or not the same way on every run, and
each mutant's tests run fastest first (bench/mutation_order.py).

Usage:  python -m bench.mutation [GAME ...] [--max-children 1] [--threshold 95] [--resume | --recheck [--only MUTANT]]
        [--with-registry]
Exit status 1 when a game's score is under the threshold; per-game results in bench/results/mutation-GAME.json.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

from domain.games import GAMES as REGISTRY, module_name, spec_for

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "mutation"
RESULTS = ROOT / "bench" / "results"
def _package_lines(game: str) -> int:
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in (ROOT / "domain" / module_name(game)).glob("*.py"))


GAMES = tuple(sorted(REGISTRY, key=_package_lines))  # every registered game (domain/games.py), smallest package first
REGISTRY_TESTS = ("test_every_game_folds_round_trips_and_cites_its_own_clauses",
                  "test_a_record_corrupted_at_a_move_is_refused_at_that_move")
# El Royale's analysis candidates (candidates.py) and inference (inference.py) are tested in test_analysis_*.py
EXTRA_TESTS = {"el-royale": ["tests/unit/test_worked_examples.py",
                             "tests/unit/test_analysis_candidates.py", "tests/unit/test_analysis_inference.py"]}
KILLED = {"killed", "timeout", "segfault", "caught by type check"}
# mutmut.stats.status_by_exit_code, repeated here so that reading results needs no mutmut configuration
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 2: "check was interrupted by user",
          None: "not checked", 33: "no tests", 34: "skipped", 35: "suspicious", 36: "timeout",
          37: "caught by type check", -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout",
          -11: "segfault", -9: "segfault"}


def package(game: str) -> str:
    return module_name(game)


def tests_of(game: str, registry: bool = False) -> list[str]:
    """The game's unit tests, as pytest arguments relative to the project root."""
    files = sorted(os.path.relpath(p, ROOT) for p in glob.glob(str(ROOT / "tests" / "unit" / f"test_{package(game)}_*.py")))
    files += EXTRA_TESTS.get(game, [])
    # the game's analysis sampler and rollout player live in its package too (determinize.py, the rollout's moves):
    # the analysis tests are what can kill their mutants: the analysis ignores unseen cards, and each sampled state
    # agrees with what the seat saw and deals the unseen cards fairly
    files += ["tests/unit/test_analysis_hidden.py", "tests/unit/test_analysis_samplers.py"]
    analysis = spec_for(game).analysis
    if analysis is not None and analysis.hand is not None:  # a game with a pair test: its told sampler (`hands=`)
        files.append("tests/unit/test_collusion.py")
    if registry:
        files += [f"tests/unit/test_registry_properties.py::{name}[{game}]" for name in REGISTRY_TESTS]
    return files


def _toml(value) -> str:
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(value)


def config(game: str, registry: bool) -> str:
    """The pyproject.toml of a game's directory: the project's pytest settings and the game's mutmut settings."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pytest_options = project["tool"]["pytest"]["ini_options"]
    mutmut = {
        "source_paths": ["domain"],  # the whole package is copied (the game imports domain.rules, ...)
        "only_mutate": [f"domain/{package(game)}/*"],  # but only the game's package is mutated
        # one selection for every game and run (mutmut drops its results when the selection changes): the plugin
        # below collects only the files named in ARBITER_MUTATION_TESTS. The registry's cases need their node ids.
        "pytest_add_cli_args_test_selection": tests_of(game, registry) if registry else ["tests/unit"],
        "pytest_add_cli_args": ["-p", "no:cacheprovider", "-p", "bench.mutation_order"],  # the game's, fastest first
        "also_copy": ["bench"],  # the plugin, and bench.four_virtues_moves that a Four Virtues test imports
        "use_git_change_detection": False,
    }
    lines = ["# written by bench/mutation.py for one game's run; not the project's pyproject.toml", "",
             "[tool.pytest.ini_options]"]
    lines += [f"{k} = {_toml(v)}" for k, v in pytest_options.items()]
    lines += ["", "[tool.mutmut]"] + [f"{k} = {_toml(v)}" for k, v in mutmut.items()]
    return "\n".join(lines) + "\n"


def prepare(game: str, resume: bool, registry: bool) -> Path:
    work = WORK / game
    if work.exists() and not resume:
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    for name in ("domain", "tests", "bench"):
        link = work / name
        if not link.is_symlink():
            link.symlink_to(ROOT / name, target_is_directory=True)
    (work / "pyproject.toml").write_text(config(game, registry))
    return work


def fingerprint(game: str) -> str:
    """A hash of the game's package as it is now: a recheck is only sound against the copy mutmut mutated."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "domain" / package(game)).glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def to_recheck(game: str, only: list[str] | None = None) -> list[str]:
    """The mutants the last measurement of a game did not kill (those of them named in `only`, if given); raises
    SystemExit when there is no measurement to recheck."""
    try:
        last = json.loads((RESULTS / f"mutation-{game}.json").read_text())
    except OSError:
        raise SystemExit(f"{game}: nothing to recheck: no bench/results/mutation-{game}.json (measure first)") from None
    if last.get("package") != fingerprint(game):
        raise SystemExit(f"{game}: domain/{package(game)} changed since the last measurement: measure afresh")
    if not (WORK / game / "mutants").is_dir():
        raise SystemExit(f"{game}: no mutants in {WORK / game} to recheck: measure afresh")
    return [name for name in last["not_killed"] if not only or name in only]


def results(work: Path, game: str) -> dict[str, str]:
    """Every mutant of the game's package and its status."""
    out = {}
    for meta in sorted((work / "mutants" / "domain" / package(game)).glob("*.py.meta")):
        for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
            out[name] = STATUS.get(code, "suspicious")
    return out


def measure(game: str, max_children: int, resume: bool, registry: bool, recheck: bool = False,
            only: list[str] | None = None) -> dict:
    names = to_recheck(game, only) if recheck else []
    work = prepare(game, resume or recheck, registry)
    files = sorted({Path(t.split("::")[0]).name for t in tests_of(game, registry)})
    env = dict(os.environ, HYPOTHESIS_PROFILE="mutation", ARBITER_MUTATION_TESTS=",".join(files))
    mutmut = Path(sys.executable).with_name("mutmut")
    start = time.monotonic()
    if recheck and not names:
        print(f"{game}: every mutant was killed last time: nothing to recheck", flush=True)
    else:  # mutmut reruns the mutants named (and finds tests added since, learning which functions they reach)
        run = subprocess.run([str(mutmut), "run", "--max-children", str(max_children), *names], cwd=work, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        (work / "mutmut-run.log").write_text(run.stdout)
        if run.returncode != 0:
            print(run.stdout[-4000:])
            raise SystemExit(f"{game}: mutmut run failed (exit {run.returncode}); log in {work / 'mutmut-run.log'}")
    seconds = time.monotonic() - start
    statuses = results(work, game)
    if not statuses:
        raise SystemExit(f"{game}: mutmut left no results in {work / 'mutants'}; log in {work / 'mutmut-run.log'}")
    counts: dict[str, int] = {}
    for status in statuses.values():
        counts[status] = counts.get(status, 0) + 1
    killed = sum(n for status, n in counts.items() if status in KILLED)
    return {"game": game, "killed": killed, "total": len(statuses), "score": 100 * killed / len(statuses),
            "seconds": round(seconds), "run": f"recheck of {len(names)}" if recheck else "full",
            "package": fingerprint(game), "counts": counts, "tests": tests_of(game, registry),
            "not_killed": sorted(name for name, status in statuses.items() if status not in KILLED),
            "statuses": statuses}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"any of {', '.join(GAMES)} (default: all)")
    parser.add_argument("--max-children", type=int, default=1, help="mutmut worker processes (default 1)")
    parser.add_argument("--threshold", type=float, default=95.0, help="least score per game, percent (default 95)")
    parser.add_argument("--resume", action="store_true", help="keep mutmut's earlier results in build/mutation/GAME")
    parser.add_argument("--recheck", action="store_true",
                        help="run again only the mutants the last measurement did not kill (after adding tests)")
    parser.add_argument("--only", action="append", metavar="MUTANT",
                        help="with --recheck: only this mutant (repeatable), e.g. after a test written for it")
    parser.add_argument("--with-registry", action="store_true",
                        help="also run the game's cases of tests/unit/test_registry_properties.py (slow)")
    args = parser.parse_args(argv)
    games = args.games or list(GAMES)
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}: one of {', '.join(GAMES)}")
    if args.resume and args.recheck:
        parser.error("--resume or --recheck, not both")
    if args.only and not args.recheck:
        parser.error("--only goes with --recheck")
    RESULTS.mkdir(parents=True, exist_ok=True)
    failed = []
    rows = []
    for game in games:
        tests = tests_of(game, args.with_registry)
        print(f"{game}: mutating domain/{package(game)}, tests {' '.join(tests)} ...", flush=True)
        r = measure(game, args.max_children, args.resume, args.with_registry, args.recheck, args.only)
        (RESULTS / f"mutation-{game}.json").write_text(json.dumps(r, indent=2) + "\n")
        rows.append(r)
        ok = r["score"] >= args.threshold
        failed += [] if ok else [game]
        detail = ", ".join(f"{n} {s}" for s, n in sorted(r["counts"].items()))
        print(f"{game}: {r['killed']}/{r['total']} killed = {r['score']:.1f}% in {r['seconds']} s, {r['run']} ({detail})"
              f" {'PASS' if ok else 'FAIL'}", flush=True)
        for name in r["not_killed"][:60]:
            print(f"    {r['statuses'][name]}: {name}")
        if len(r["not_killed"]) > 60:
            print(f"    ... {len(r['not_killed']) - 60} more in bench/results/mutation-{game}.json")
    print()
    for r in rows:
        print(f"{r['game']:>13}  {r['killed']:>4}/{r['total']:<4} {r['score']:5.1f}%  {r['seconds']:>5} s")
    if failed:
        print(f"under {args.threshold:g}%: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
