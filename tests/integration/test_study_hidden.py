"""A study from a seat's point of view shows only what that seat could see (issue 36 part 7, docs/studies.md), for
every game with a sampler: the bots play the other seats on cards sampled for them, and what the study shows of each
bot's move (its `move`, its words) names no card that was hidden from the study's seat, unless the move itself
showed it to that seat (the decider's `disclosed`: to all, or to that seat alone).

The hidden cards of a position are read independently of the words: the card strings of the referee's projection
that the seat's own projection does not hold. A move's words that named a card the move did not show (a hand
arranged, a card discarded face down, a card drawn by another seat) would fail here (told as the referee saw them, the bots' draws in Batallion and Four Virtues fail it)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from uuid import UUID

import pytest

from domain.games import spec_for
from domain.records import to_document
from projections.registry import projection_for
from projections.viewers import REFEREE, Viewer
from tests.unit.test_analysis_hidden import CASES, _game

from .api_support import API

SEAT = 1
ROUNDS = 6  # the seat's moves played in the study (each followed by the bots' answers)


def _strings(x) -> set[str]:
    if isinstance(x, str):
        return {x}
    if isinstance(x, dict):
        return set().union(*(_strings(v) for v in x.values())) if x else set()
    if isinstance(x, list):
        return set().union(*(_strings(v) for v in x)) if x else set()
    return set()


def _hidden(game: str, state, seat: int) -> set[str]:
    """The card strings of the position the seat did not see (the referee's projection beyond the seat's)."""
    table = projection_for(game).table
    return _strings(table(state, REFEREE, False)) - _strings(table(state, Viewer.of_seat(seat), False))


@pytest.mark.parametrize("game,players,options", CASES, ids=[f"{g}-{json.dumps(o)}" for g, _, o in CASES])
def test_a_seats_study_shows_no_card_the_seat_could_not_see_in_the_bots_moves(client, game, players, options):
    record = _game(game, players, options)
    doc = to_document(record.game, record.setup, record.seed, record.outcomes, record.moves)
    created = client.post(f"{API}/records", json=doc).get_json()
    gid, top = created["id"], client.get(f"{API}/games/{created['id']}").get_json()["version"]
    checked = 0
    for version in (top // 4, top // 2, 3 * top // 4):
        study = client.post(f"{API}/games/{gid}/studies", json={"version": version, "seat": SEAT, "seed": "hidden"},
                            headers={"Authorization": f"Bearer {created['referee_token']}"}).get_json()
        for _ in range(ROUNDS):
            legal = [m for m in study["view"]["table"].get("legal_moves") or [] if study["to_act"] == [SEAT]]
            whole = [m for m in legal if "max" not in m and "from" not in m]
            if study["over"] or not whole:
                break
            r = client.post(f"{API}/studies/{study['id']}/moves", json={"move": whole[-1]},
                            headers={"Authorization": f"Bearer {created['referee_token']}"})
            if r.status_code != 200:
                break
            study = r.get_json()
        studies = client.application.extensions["arbiter"].studies
        stored = studies._load(UUID(study["id"]))
        start = studies._sandbox(gid, version, SEAT, "hidden")
        states = {0: start.state}
        decider, fmt = start.decider, spec_for(game).codec.format_card
        for node in stored.nodes[1:]:
            before = states[node["parent"]]
            sandbox = replace(start, state=before)
            sandbox.play(node["move"])
            states[node["id"]] = sandbox.state
            if node["by"] != "bot":
                continue
            shown = study["nodes"][node["id"]]
            assert set(shown["move"]) <= {"type", "seat"}, shown["move"]
            disclosed: set[str] = set()
            state = before
            for e in sandbox.events:
                private, public = decider.disclosed(state, e)
                disclosed |= {fmt(c) for c in list(private.get(SEAT, ())) + list(public)}
                state = decider.evolve(state, e)
            secret = _hidden(game, before, SEAT) - disclosed
            words = set(re.split(r"[\s,;:()]+", shown["text"] or ""))
            assert not words & secret, (game, shown["text"], words & secret)
            checked += 1
    assert checked, f"{game}: no bot move was checked"
