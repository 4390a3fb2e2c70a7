"""The table's story: the last things that happened at a table, and the news a viewer must not miss, told from that
viewer's own event log (`event_log`, already redacted for it), never from the stored events.

- `story(entries, limit)`: the last `limit` entries that tell something (moves, refusals, disputes, rulings, rewinds,
  time running out, the end), oldest first. Talk and naming are left out (the talk has its own panel). Each refusal
  carries its number for its seat (`data.seat_attempt`, counted over the game's whole attempts stream by
  domain.attempts.seat_numbers: the one number every page shows).
- `news(entries, disputes, seat)`: every ruling the viewer has not been at the table since, oldest first. "Since it
  last looked" is read from the log alone, the one record of the table that every viewer's page is built from (no
  page view is stored): for a seat, since its own last act at the table (a move, a message, a dispute, its name; not
  a refused attempt, which met the table as it was, nor a pass the service made for it); for a spectator or the
  referee, since the last move anyone played. A seat that has not acted since is told all of them, its own disputes
  first-person.

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
    """What a viewer must be told at the top of the table: `rulings`, every ruling made after the viewer was last at
    the table (module docstring), oldest first; each the dispute with its ruling, `rewound_to` (after a rewind, else
    None) and `mine` (the seat's own dispute, not a time flag); `seen`, the version that was."""
    if seat is not None:
        actor = f"seat:{seat}"
        acts = [e["version"] for e in entries
                if e.get("actor") == actor and e["type"] != "move_rejected" and not e.get("automatic")]
    else:
        acts = [e["version"] for e in entries
                if e["type"] not in NOT_PLAY and str(e.get("actor") or "").startswith("seat:")]
    seen = max(acts, default=0)
    ruled = sorted((d for d in disputes if d.get("ruling") and d["ruling"]["ruled_at"] > seen),
                   key=lambda d: d["ruling"]["ruled_at"])
    rewinds = {e["data"].get("dispute"): e["data"]["to_version"] for e in entries if e["type"] == "rewound"}
    return {"seen": seen, "rulings": [{**d, "rewound_to": rewinds.get(d["number"]),
                                       "mine": seat is not None and d.get("seat") == seat and not d.get("time_expired")}
                                      for d in ruled]}
