"""The table's story: the last things that happened at a table, and the news a viewer must not miss, told from that
viewer's own event log (`event_log`, already redacted for it), never from the stored events.

- `story(entries, limit)`: the last `limit` entries that tell something (moves, refusals, disputes, rulings, rewinds,
  time running out, the end), oldest first. Talk and naming are left out (the talk has its own panel). Each refusal
  carries its number for its seat (`data.seat_attempt`, counted over the game's whole attempts stream by
  domain.attempts.seat_numbers: the one number every page shows).
- `news(entries, disputes, seat)`: the referee's latest ruling while nothing has been played since (every viewer),
  and for a seat, the ruling on its own latest ruled dispute until that seat plays again.

A seat's log holds its own refused attempts only when the caller adds them (`own_refusals` of
projections.event_log); a spectator's holds none until the end. Nothing here adds a card: every card in the story is
one the entries it was given already showed that viewer.
"""

from __future__ import annotations

QUIET = frozenset({"created", "said", "player_named"})  # not told in the story (talk has its own panel)
NOT_PLAY = QUIET | {"dispute_filed", "dispute_ruled", "rewound", "move_rejected", "seed_revealed", "time_expired"}
STORY_LENGTH = 12


def story(entries: list[dict], limit: int = STORY_LENGTH) -> list[dict]:
    """The last `limit` telling entries of a viewer's log, oldest first."""
    told = [entry for entry in entries if entry["type"] not in QUIET]
    return told[-limit:] if limit else told


def seat_attempts(entries: list[dict]) -> dict[int, int]:
    """Each refused attempt's game-wide number (what a dispute names) -> its number for its seat, for the refusals
    in `entries`."""
    return {e["data"]["attempt"]: e["data"]["seat_attempt"] for e in entries if e["type"] == "move_rejected"}


def news(entries: list[dict], disputes: list[dict], seat: int | None) -> dict:
    """What a viewer must be told at the top of the table: `ruling` (the latest ruling, while no move was played after
    it) and `mine` (for a seat: the ruling on its latest ruled dispute, until it plays again); each is the dispute
    with its ruling and, after a rewind, `rewound_to`, or None."""
    ruled = [d for d in disputes if d.get("ruling")]
    latest = max(ruled, key=lambda d: d["ruling"]["ruled_at"], default=None)
    played = [e for e in entries if e["type"] not in NOT_PLAY]

    def since(dispute: dict, actor: str | None = None) -> bool:
        at = dispute["ruling"]["ruled_at"]
        return any(e["version"] > at and (actor is None or e["actor"] == actor) for e in played)

    def told(dispute: dict) -> dict:
        rewind = next((e for e in entries if e["type"] == "rewound" and e["data"].get("dispute") == dispute["number"]), None)
        return {**dispute, "rewound_to": rewind["data"]["to_version"] if rewind else None}

    ruling = told(latest) if latest and not since(latest) else None
    mine = None
    if seat is not None:
        own = max((d for d in ruled if d.get("seat") == seat and not d.get("time_expired")),
                  key=lambda d: d["ruling"]["ruled_at"], default=None)
        if own is not None and not since(own, f"seat:{seat}"):
            mine = told(own)
    return {"ruling": ruling, "mine": mine}
