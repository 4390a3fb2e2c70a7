"""Recorded games without a store (contract §2): verify a record file, narrate it, export it through the aggregate.

The CLI calls these; they answer in simple types (verdict dicts, lines of text, record documents).
"""

from __future__ import annotations

from domain.games import spec_for
from domain.records import InvalidRecord, Record, load, replay
from domain.rules import InvalidSetup, RuleViolation
from service import fast_road

# domain.game (eventsourcing) and projections.narration are imported where they are needed: `arbiter replay --json`
# verifies records with the bare decider alone, and starts faster without them

__all__ = ["InvalidRecord", "verify_file", "export_file"]


def verify_file(path: str, with_account: bool = False) -> tuple[dict, dict | None]:
    """The verdict of a record file and, if asked, its account (every event as a line of text).

    An invalid record gives ``({"status": "invalid", "error": ...}, None)``, never an exception.
    """
    try:
        record = load(path)
        result = replay(record, keep_events=with_account, fast_road_allowed=fast_road.allowed())
        verdict = result.verdict()
    except InvalidRecord as e:
        return {"status": "invalid", "error": str(e)}, None
    except RecursionError:
        return {"status": "invalid", "error": "not a record: nested too deeply"}, None
    if not with_account:
        return verdict, None
    return verdict, _account(record, result.events, verdict)


def _account(record: Record, events: list[dict], verdict: dict) -> dict:
    from projections.narration import describe, move_text

    d = record.decider
    names = list(record.setup.names)
    lines, move_no = [], -1
    for e in events:
        is_move = d.move_of(e) is not None
        if is_move:
            move_no += 1
        lines.append({"move": move_no if is_move else None, "text": describe(record.game, record.codec.encode_event(e), names)})
    illegal = None
    if verdict["illegal"]:
        bad = record.codec.format_move(record.moves[verdict["illegal"]["move_index"]])
        illegal = {**verdict["illegal"], "text": f"{names[bad['seat']]} {move_text(record.game, bad, names)}"}
    return {"game": record.game, "title": spec_for(record.game).title, "options": dict(record.raw_options or record.setup.options()),
            "players": names, "stacked": record.stacked, "lines": lines, "illegal": illegal}


def export_file(path: str) -> tuple[dict, str | None]:
    """Play a record through the event-sourced game and give the game back as a record, with a warning
    naming the first illegal move (the export stops before it); raises InvalidRecord."""
    from domain.game import Game

    record = load(path)
    try:
        game = Game.start(record)
    except InvalidSetup as e:
        raise InvalidRecord(str(e)) from None
    warning = None
    for i, move in enumerate(record.moves):
        try:
            game.play(move)
        except RuleViolation as v:
            warning = f"move {i} is illegal ({v.clause}: {v.reason}); exported the game up to it"
            break
    return game.to_record(reveal_seed=True), warning  # the seed came from the record itself
