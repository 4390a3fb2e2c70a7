"""Tournament bundles (service/tournaments/facade.py `bundle`, written by `bundle_lines`): JSON Lines, a header `arbiter.tournament/1` then one
`arbiter.record/1` per game, in the order of the header's rounds, tables and games.

`arbiter replay X.jsonl` verifies a bundle in one call: every record is replayed (one verdict a game, as for any
archive), each verdict must match the result the header lists for that game, and the standings recomputed from the
verdicts with the tournament's seating must equal the header's. A last verdict line speaks for the tournament.
"""

from __future__ import annotations

import json
from typing import Any, Iterator

from domain.records import InvalidRecord, parse, replay
from service import fast_road

# domain.tournament.standings (fractions, decimal) is imported when a bundle is verified: `arbiter replay` of an
# archive that is no bundle starts without it

FORMAT = "arbiter.tournament/1"


def bundle_lines(view: dict, records: list[dict]) -> Iterator[str]:
    """A tournament's bundle as JSON lines: the header from its view (settings, players, rounds, standings), then the
    records of its games in the order of the view's rounds, tables and games."""
    header = {"format": FORMAT, "id": view["id"], "name": view["name"], "game": view["game"],
              "options": view["options"], "format_of_play": view["format"], "duplicate": view["duplicate"],
              "players": view["players"], "rounds": view["rounds"], "standings": view["standings"],
              "games": len(records)}
    yield json.dumps(header, separators=(",", ":")) + "\n"
    for doc in records:
        yield json.dumps(doc, separators=(",", ":")) + "\n"


def is_bundle_header(doc: object) -> bool:
    return isinstance(doc, dict) and doc.get("format") == FORMAT


def verify_bundle(header: dict, lines: list[tuple[int, Any]]) -> Iterator[dict]:
    """The verdict of every game of a bundle, then the tournament's: {"status": "finished"|"invalid", "tournament"}.
    `lines`: (line number, its record as read within the JSON bounds, or the ValueError saying why it could not be)."""
    from domain.tournament.standings import rank_by_of, standings

    problems: list[str] = []
    try:
        listed = [(r["number"], t, g) for r in header["rounds"] for t in r["tables"] for g in t["games"]]
        players = header["players"]
    except (KeyError, TypeError):
        yield {"status": "invalid", "error": "line 1: the tournament header lacks its rounds, tables or players"}
        return
    if len(listed) != len(lines):
        problems.append(f"the header lists {len(listed)} games but the bundle holds {len(lines)} records")
    games = []
    for (number, table, game), (line_no, line) in zip(listed, lines):
        scores = None
        try:
            if isinstance(line, ValueError):  # the line is not bounded JSON (service.json_files.FileProblem)
                raise InvalidRecord(getattr(line, "reason", str(line)))
            played = replay(parse(line, checked=True), fast_road_allowed=fast_road.allowed())
            verdict = played.verdict()
            outcome = played.record.decider.outcome(played.state)
            scores = list(outcome.scores) if outcome.is_over and outcome.scores else None
        except InvalidRecord as e:
            verdict = {"status": "invalid", "error": f"line {line_no}: {e}"}
        yield verdict
        if verdict["status"] == "invalid":
            problems.append(f"line {line_no}: the record of game {game.get('game_id')} is invalid")
            continue
        if (verdict.get("result"), verdict.get("winner")) != (game.get("result"), game.get("winner")):
            problems.append(f"line {line_no}: the record ends {verdict.get('result')} but the header says {game.get('result')}")
        finished = verdict["status"] == "finished"
        if scores != game.get("scores"):
            problems.append(f"line {line_no}: the record's scores {scores} differ from the header's {game.get('scores')}")
        games.append({"round": number, "table": table["table"], "index": game["index"], "board": game.get("board"),
                      "players": [p["player"] for p in table["players"]], "status": "finished" if finished else "in_progress",
                      "result": verdict.get("result"), "winner": verdict.get("winner"),
                      "scores": scores})
    byes = [(r["number"], next(i for i, p in enumerate(players) if p["name"] == name))
            for r in header["rounds"] for name in r.get("byes", [])]
    try:
        again = standings(players, games, byes, rank_by_of({"game": header["game"], "duplicate": header.get("duplicate")}))
    except (KeyError, ValueError, TypeError, IndexError) as e:
        again = None
        problems.append(f"the standings cannot be recomputed ({type(e).__name__})")
    plain = lambda doc: {k: v for k, v in doc.items() if k != "order"} if isinstance(doc, dict) else doc  # noqa: E731
    if again is not None and plain(again) != plain(header.get("standings")):  # "order": the legend, since issue 35
        problems.append("the standings recomputed from the records differ from the header's")
    out = {"status": "invalid" if problems else "finished", "tournament": header.get("id"), "games": len(lines)}
    if problems:
        out["error"] = "; ".join(problems)
    yield out
