"""The two row decoders of verification (service.verification.plain_rows, service.verification.stored_rows) give one
report: for games of every registered game and every example table (domain.games), seated at the fewest and the
most players it allows, cut short and played out, with table talk and snapshots, the driver's report through the
plain decoder is byte for byte the report through the detailed decoder over the same rows, and the plain decoder
takes every such game (else this test would compare nothing)."""

from __future__ import annotations

import json
from uuid import UUID

import pytest

from domain.autoplay import game_rng, random_game
from domain.games import DECIDERS, SPECS
from service.adapters.catalogue_store import Catalogue
from service.play.referee import Referee
from service.verification.bulk import read_batch
from service.verification.driver import detailed_report, plain_report
from service.play.new_games import ImportRecord

TABLES = [(game, options) for game in sorted(DECIDERS) for options in SPECS[game].example_options]


@pytest.mark.parametrize("game,options", TABLES, ids=[f"{g}-{json.dumps(o, sort_keys=True)}" for g, o in TABLES])
def test_the_plain_and_the_detailed_decoder_give_the_same_report(game, options):
    app = Referee("memory://")
    seats = SPECS[game].seats_for(options)
    ids = []
    for n in sorted({seats.low, seats.high}):
        for k, moves in enumerate((5, 40, 3000)):
            players = [{"name": f"P{i} é"} for i in range(n)]
            doc = random_game(game, options, players, f"{n:02x}{k:02x}", game_rng(n, k), max_moves=moves, chatter=0.1)
            ids.append(UUID(app.import_record(ImportRecord.from_body(doc))["id"]))
    catalogue = Catalogue.for_app(app)
    catalogue.catch_up()
    seen = {"snapshots": 0, "ended": 0, "pending": 0}
    for gid, rows in read_batch(app, ids, catalogue).items():
        plain = plain_report(app, gid, rows, True, True)
        assert plain is not None, f"the plain decoder declined an intact game ({gid})"
        detailed = detailed_report(app, gid, rows, True, True)
        assert json.dumps(plain) == json.dumps(detailed)
        assert plain["ok"] is True
        seen["snapshots"] += bool(rows.snapshots)
        seen["pending" if plain["deal"]["seed"] is None else "ended"] += 1
    assert seen["ended"] and seen["pending"], seen
