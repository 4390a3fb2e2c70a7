"""`arbiter import`'s bulk road (service.offline.bulk_import.build) writes only the events it declares (WRITES: their
fields, in order) and hands every record to the service's own import when the aggregate's events have another shape,
as it does a record with an illegal move."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from uuid import UUID

import pytest

from domain.autoplay import game_rng, random_game
from domain.game import Game
from domain.games import DECIDERS, SPECS
from domain.records import parse
from service.offline import bulk_import
from service.play.referee import Referee

GAMES = sorted(DECIDERS)
BY_TOPIC = {f"domain.game:Game.{cls.__name__}": names for cls, names in bulk_import.WRITES.items()}


def _doc(game: str, index: int) -> dict:
    options = SPECS[game].example_options[0]
    players = [{"name": f"P{k}"} for k in range(SPECS[game].seats_for(options).low)]
    return random_game(game, options, players, f"{index:04x}", game_rng(game, index), max_moves=150, chatter=0.1)


def test_the_aggregates_events_are_the_ones_bulk_import_was_written_for():
    assert bulk_import.written_for()
    assert set(bulk_import.WRITES) == {Game.Created, Game.Happened, Game.SeedRevealed}


@pytest.mark.parametrize("game", GAMES)
def test_every_row_build_writes_holds_the_fields_it_declares_in_their_order(game):
    mapper = Referee("memory://").mapper
    topics = set()
    for index in range(3):
        built = bulk_import.build(parse(_doc(game, index)), mapper)
        assert built is not None
        for row in built.rows:
            assert tuple(json.loads(row.state)) == BY_TOPIC[row.topic]
            topics.add(row.topic)
    assert "domain.game:Game.Created" in topics and "domain.game:Game.Happened" in topics


def test_a_declaration_that_differs_from_the_events_by_one_field_or_its_order_is_not_taken():
    for cls, names in bulk_import.WRITES.items():
        assert not bulk_import.written_for({**bulk_import.WRITES, cls: names[:-1]})
        assert not bulk_import.written_for({**bulk_import.WRITES, cls: names[::-1]})


def test_events_of_another_shape_send_every_record_to_the_services_import(tmp_path, monkeypatch):
    docs = [_doc(game, 0) for game in GAMES]
    for i, doc in enumerate(docs):
        (tmp_path / f"r{i}.json").write_text(json.dumps(doc))
    files = bulk_import.sources([str(tmp_path)])
    imported, built = [], []

    def service_import(command) -> dict:
        imported.append(command.record)
        return {"id": "x", "referee_token": "t", "verdict": {"status": "finished"}}

    arbiter = SimpleNamespace(app=SimpleNamespace(mapper=None), play=SimpleNamespace(import_record=service_import))
    monkeypatch.setattr(bulk_import, "build", lambda record, mapper: built.append(record))
    # as if Game.Happened had gained a field that build does not write
    monkeypatch.setitem(bulk_import.WRITES, Game.Happened, bulk_import.WRITES[Game.Happened][:-1])
    lines = list(bulk_import.import_files(arbiter, files))
    assert not built and [r.game for r in imported] == [d["game"] for d in docs] and len(lines) == len(docs)


def test_with_the_events_it_was_written_for_bulk_import_builds_every_legal_record(tmp_path, monkeypatch):
    """The spy above sees a build when there is one: with the aggregate as it is, no record reaches the service."""
    rng = random.Random(1)
    docs = [_doc(game, rng.randrange(100)) for game in GAMES]
    for i, doc in enumerate(docs):
        (tmp_path / f"r{i}.json").write_text(json.dumps(doc))
    imported, built = [], []
    arbiter = SimpleNamespace(app=SimpleNamespace(mapper=None), play=SimpleNamespace(import_record=imported.append))
    done = bulk_import.Built(UUID(int=1), [], "r", [], "h", {"status": "finished"})
    monkeypatch.setattr(bulk_import, "build", lambda record, mapper: built.append(record) or done)
    list(bulk_import.import_files(arbiter, bulk_import.sources([str(tmp_path)])))
    assert len(built) == len(docs) and not imported
