"""Balance reports: what many recorded games say about seats, bots, endings and length, with Wilson intervals.

Everything is recomputed from `arbiter.record/1` documents (a simulation's directory or JSON
Lines archive, or any record files): each record is replayed through its decider, exactly as
`arbiter replay` verifies it, and a record that is invalid or has an illegal move stops the
report. Games are grouped by table (game, options, number of players, the bot kinds playing). Which bot sat where is
read from the player names that service.offline.simulation gives (``<bot kind>-<seat>``); other
records count under the bot name ``-``.

Per table: win rate by seat, by position after the first player (the seat of the first move
that is not table talk or an arrangement made before play) and by bot; ending kinds (the verdict's
result, or where the game's spec says why it ended, `GameSpec.ending`); game length in moves and
in the game's own unit (`GameSpec.length`). A shared win (a tie for the most chips, a team)
counts as a win for every winning seat, so a table's win rates may add up to more than one.
Intervals are Wilson score intervals at 95%.

Unfinished games (still on when the simulation's move cap came, `arbiter simulate --max-moves`) are
counted, never dropped: they are an ending of their own (`unfinished`, with its rate and the cap they
met, `unfinished.cap`), they stay in every win rate's denominator as no one's win, and they are left out
of the lengths, which are those of finished games only (None when no game finished), so a run of
runaway games cannot pass for a table of long games.
"""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from domain.games import spec_for
from domain.records import InvalidRecord, parse, replay
from service import fast_road
from service.json_files import FileProblem, read_json, read_json_lines

Z95 = 1.959963984540054
UNFINISHED = "unfinished"  # the simulation's move cap came first (status in_progress)


class ReportError(ValueError):
    """Records a report cannot be made from: the message names the record and the problem."""


@dataclass(frozen=True)
class GameResult:
    """One recorded game, as the report counts it."""

    source: str
    game: str
    options: dict
    bots: tuple[str, ...]
    winners: tuple[int, ...]
    ending: str
    moves: int
    length: int
    first: int | None

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.bots)

    @property
    def table(self) -> tuple[str, str, int, tuple[str, ...]]:
        """The group this game is counted in: game, options (canonical JSON), seats, the bot kinds at the table."""
        return self.game, json.dumps(self.options, sort_keys=True), self.players, tuple(sorted(set(self.bots)))


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0, 1 with no trials)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))  # rounding never leaves p outside


def read_records(paths: Iterable[str]) -> Iterator[tuple[str, Any]]:
    """(where, document) for each record: a directory's `*.json` in name order, a `.jsonl` archive's lines, a file;
    each read within the JSON bounds (service.json_files): a file or line outside them is a ReportError naming it."""
    for raw in paths:
        path = Path(raw)
        try:
            if path.is_dir():
                files = sorted(path.glob("*.json"))
                if not files:
                    raise ReportError(f"{path}: no *.json records in this directory")
                for f in files:
                    yield str(f), read_json(str(f))
            elif path.suffix == ".jsonl":
                for number, doc in read_json_lines(str(path)):
                    if isinstance(doc, FileProblem):
                        raise doc
                    yield f"{path}:{number}", doc
            else:
                yield str(path), read_json(str(path))
        except FileProblem as e:
            raise ReportError(str(e)) from None


def result_of(source: str, doc: Any) -> GameResult:
    """Replay one record and read what the report counts; raises ReportError for an invalid or illegal record."""
    try:
        record = parse(doc)
    except InvalidRecord as e:
        raise ReportError(f"{source}: invalid record: {e}") from None
    played = replay(record, keep_events=True, fast_road_allowed=fast_road.allowed())
    verdict = played.verdict()
    if verdict["status"] == "illegal":
        bad = verdict["illegal"]
        raise ReportError(f"{source}: move {bad['move_index']} is illegal ({bad['rule']}: {bad['reason']})")
    moves = [m for m in doc.get("moves", []) if m.get("type") != "say"]
    finished = verdict["status"] == "finished"
    spec = spec_for(record.game)
    ending = (spec.ending.of(played.events) if spec.ending else verdict["result"]) if finished else UNFINISHED
    winners = tuple(verdict["winner"]["seats"]) if verdict["winner"] else ()
    first = next((m["seat"] for m in moves if m["type"] not in spec.setup_moves), None)
    return GameResult(source, record.game, record.setup.options(), tuple(_bot_of(p) for p in doc["players"]),
                      winners, ending, len(moves), spec.length.of(played.events, moves, verdict), first)


def _bot_of(player: dict) -> str:
    name = str(player.get("name", ""))
    kind, _, seat = name.rpartition("-")
    return kind if kind and seat.isdigit() else "-"


def rate(successes: int, trials: int) -> dict:
    """A proportion with its Wilson interval, as the report shows it."""
    low, high = wilson(successes, trials)
    return {"count": successes, "of": trials, "rate": successes / trials if trials else 0.0, "low": low, "high": high}


def spread(values: list[int]) -> dict:
    """Mean, median, 10th and 90th percentiles, min and max of a list of lengths (and the values, for plots)."""
    ordered = sorted(values)
    deciles = statistics.quantiles(ordered, n=10, method="inclusive") if len(ordered) > 1 else [ordered[0]] * 9
    return {"mean": statistics.fmean(ordered), "median": statistics.median(ordered), "p10": deciles[0],
            "p90": deciles[8], "min": ordered[0], "max": ordered[-1], "values": ordered}


def table_report(results: list[GameResult]) -> dict:
    """The report of one table's games (all of one game, options and number of seats)."""
    first = results[0]
    spec = spec_for(first.game)
    n, games = first.players, len(results)
    by_seat = [rate(sum(1 for r in results if seat in r.winners), games) for seat in range(n)]
    positioned = [r for r in results if r.first is not None]
    by_position = [rate(sum(1 for r in positioned if (r.first + k) % n in r.winners), len(positioned)) for k in range(n)]
    kinds = sorted({b for r in results for b in r.bots})
    by_bot = {kind: rate(sum(1 for r in results for seat, b in enumerate(r.bots) if b == kind and seat in r.winners),
                         sum(r.bots.count(kind) for r in results)) for kind in kinds}
    endings = Counter(r.ending for r in results)
    finished = [r for r in results if r.ending != UNFINISHED]
    unfinished = [r.moves for r in results if r.ending == UNFINISHED]
    return {
        "game": first.game, "title": spec.title, "options": first.options, "players": n,
        "bots": list(kinds),
        "games": games, "finished": len(finished), "unit": spec.length.unit,
        "unfinished": rate(len(unfinished), games) | {"cap": max(unfinished, default=None)},
        "win_by_seat": by_seat, "win_by_position": by_position, "win_by_bot": by_bot,
        "endings": {kind: rate(count, games) for kind, count in sorted(endings.items())},
        "moves": spread([r.moves for r in finished]) if finished else None,
        "length": spread([r.length for r in finished]) if finished else None,
    }


def balance_report(paths: Iterable[str]) -> list[dict]:
    """The report of every table found in the records at `paths`; raises ReportError."""
    return report_of(read_records(paths))


def report_of(records: Iterable[tuple[str, Any]]) -> list[dict]:
    """The report of every table among (where, document) records; raises ReportError."""
    groups: dict[tuple, list[GameResult]] = {}
    for source, doc in records:
        result = result_of(source, doc)
        groups.setdefault(result.table, []).append(result)
    if not groups:
        raise ReportError("no records to report on")
    return [table_report(groups[key]) for key in sorted(groups, key=lambda k: (k[0], k[2], k[1], k[3]))]


def table_label(report: dict) -> str:
    """A table's name in a report: game, seats, options (`edition=classic`, `variants=guts+scarcity`) and bots."""
    parts = []
    for key, value in sorted(report["options"].items()):
        shown = "+".join(value) if isinstance(value, list) else str(value)
        parts.append(f"{key}={shown or 'none'}")
    options = f" ({', '.join(parts)})" if parts else ""
    return f"{report['title']}, {report['players']} players{options}, bots: {' + '.join(report['bots'])}"
