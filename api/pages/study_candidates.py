"""The analysis's candidates beside a study's board (issue 36 part 7, docs/studies.md "The page"): the line of the
recorded game's analysis for the position a study starts from, when one is done and this viewer may read it.

A study starts at a version of a recorded game, from one seat's knowledge; the analysis judges that seat's decisions
in the recorded game from the same knowledge. Their positions are the same only at the study's start, and only when
the seat is to act there (its decision is the game's move at version + 1): that node alone gets the line. Elsewhere
(and when no analysis is done yet) the page links the replay at the study's version, where one is started. The line
is found, never started: reading a study costs no analysis.
"""

from __future__ import annotations

from projections.narration import move_text
from service.analysis.jobs import DEFAULT_HTTP_SAMPLES, JobKey
from service.errors import ServiceError
from service.access import parse_game_id

from api.current import arbiter

SEEDS = ("0",)  # the replay's analysis asks with the default seed
SAMPLES = (1000, DEFAULT_HTTP_SAMPLES)  # the replay's control proposes 1000 samples a move


def candidates(s: dict, token: str | None) -> dict | None:
    """{"line": the analysis line, or None; "at": the node it belongs to} for a study shown (`s`), or None when this
    viewer may not analyse the seat. Only the study's start node has a line (see the module doc)."""
    facade = arbiter()
    try:
        if s["seat"] not in facade.analysis.seats(s["game_id"], token):
            return None
        gid = parse_game_id(s["game_id"])
        version = facade.views.public(s["game_id"], token)["version"]  # an analysis job is of the game as it stands
    except ServiceError:
        return None
    line = None
    if s["node"] == 0:
        for samples in SAMPLES:
            for seed in SEEDS:
                lines = facade.analysis.finished_lines(JobKey(gid, version, s["seat"], samples, seed))
                if lines is not None:
                    line = next((x for x in lines if x.get("version") == s["version"] + 1), line)
    if line is not None:  # each candidate in words, players by name
        line = {**line, "moves": [{**m, "text": move_text(s["game"], m["move"], s["players"])} for m in line["moves"]]}
    return {"line": line, "at": 0}
