"""The tournament room checked by an implementation nobody tuned to (tests/tournament_room.py): random tournaments of
every format (2–40 players, random results, disputes ruled with and without rewinds, byes) run through the service
on an in-memory store; at every step the served standings, tie-breaks and crosstable equal what the stored events
say, and every round's pairing keeps the documented rules.

Light here (`make test`): ARBITER_ROOM_EVENTS generated events per format (600 by default). `make tournament-check`
runs it with 5,000 (docs/tournaments.md, "The room's checker")."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.tournament_room import FORMATS, case_for, run_case

EVENTS = int(os.environ.get("ARBITER_ROOM_EVENTS", "600"))
EXAMPLES = int(os.environ.get("ARBITER_ROOM_EXAMPLES", "1"))  # hypothesis's; then seeded ones up to EVENTS
CASE_EVENTS = int(os.environ.get("ARBITER_ROOM_CASE_EVENTS", str(EVENTS // 2)))  # no new round past these


@pytest.mark.parametrize("fmt", FORMATS)
def test_random_tournaments_serve_the_standings_crosstable_and_pairings_their_events_say(fmt):
    made = {"events": 0, "tournaments": 0}

    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.randoms(use_true_random=False))
    def a_random_tournament(rnd):
        played = run_case(case_for(fmt, rnd, CASE_EVENTS))
        made["events"] += played.events
        made["tournaments"] += 1

    a_random_tournament()
    top_up = random.Random(f"{fmt}:{EVENTS}")  # more random tournaments until the events asked for are made
    while made["events"] < EVENTS:
        played = run_case(case_for(fmt, top_up, CASE_EVENTS))
        made["events"] += played.events
        made["tournaments"] += 1
    print(f"{fmt}: {made['tournaments']} tournaments, {made['events']} events")
    assert made["events"] >= EVENTS
