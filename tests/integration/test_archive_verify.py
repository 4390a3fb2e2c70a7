"""`arbiter verify --all` at archive speed (service.verification.bulk, service.verification.driver): rows read in bulk, plain
games read by the plain decoder, batches on several processes — and every report the same as the detailed decoder's
(`Arbiter.verify(game, full=True)` game by game), on clean and on tampered stores, SQLite file and PostgreSQL."""

from __future__ import annotations

import json
import re
from uuid import UUID

import pytest
from click.testing import CliRunner

from api.cli.main import main
from domain.records import parse
from service.adapters.catalogue_store import Catalogue
from service.verification import driver
from service.verification.bulk import verify_all
from tests.conftest import sample_records
from tests.integration.evidence_support import SHORT, new_table, truncate
from tests.integration.service_support import RawEvents
from service.play.commands import FileDispute, NameSeat
from service.play.new_games import ImportRecord

STORES = ["sqlite", "postgres"]
REPORT_KEYS = {"id", "game", "ok", "chain", "deal", "provenance", "checkpoint", "engine", "catalogue"}


def evidence(tmp_path, name: str = "store") -> dict:
    return {"key_file": str(tmp_path / f"{name}.key"), "checkpoint_log": str(tmp_path / f"{name}.checkpoints.jsonl")}


def sample_docs() -> list[dict]:
    """The sample records that are valid (every game, stacked decks, fixed outcomes, illegal moves): arbiter's own,
    then the shared ones when they are beside the checkout."""
    docs = []
    for path in sample_records(shared_too=True):
        doc = json.loads(path.read_text())
        try:
            parse(doc)
        except Exception:
            continue
        docs.append(doc)
    return docs


def season(arbiter, docs: int = 40) -> list[str]:
    """Games made through the service: sample records of every game imported, El Royale games played to their end
    and one left in progress (long ones with snapshots), one with a dispute; the catalogue caught up."""
    for doc in sample_docs()[:docs]:
        arbiter.play.import_record(ImportRecord.from_body(doc))
    for seed in range(2):
        new_table(arbiter, 3, SHORT).play_to_end()
    long = new_table(arbiter, 4).play(130)
    for _ in range(5):  # the deal is arbiter's own random one: now and then a game ends early; take another
        if long.version > 100:
            break
        long = new_table(arbiter, 4).play(130)
    assert long.version > 100, "a game long enough to have a snapshot"
    disputed = new_table(arbiter, 3, SHORT).play(6)
    first_move = arbiter.app.game(disputed.gid).move_versions[0]
    arbiter.play.file_dispute(disputed.tokens[0], FileDispute.from_body(disputed.id, {"version": first_move, "claim": "I object"}))
    Catalogue.for_app(arbiter.app).catch_up()
    return arbiter.verification.game_ids()


def one_by_one(arbiter, ids: list[str]) -> list[dict]:
    """The detailed decoder: each game read and checked on its own, as `arbiter verify GAME` does."""
    return [arbiter.verification.verify(gid, full=True) for gid in ids]


@pytest.fixture
def counted(monkeypatch):
    """How many games the plain decoder took, and how many it left to the detailed one."""
    counts = {"fast": 0, "detailed": 0}
    real = driver.plain_report

    def counting(*a, **k):
        report = real(*a, **k)
        counts["fast" if report is not None else "detailed"] += 1
        return report

    monkeypatch.setattr(driver, "plain_report", counting)
    return counts


@pytest.mark.parametrize("kind", STORES)
def test_bulk_and_parallel_verify_give_every_clean_game_the_report_of_the_detailed_road(kind, stores, facades, tmp_path,
                                                                                        counted):
    url = stores.url(kind)
    arbiter = facades(url, **evidence(tmp_path))
    ids = season(arbiter)
    expected = one_by_one(arbiter, ids)
    assert all(r["ok"] for r in expected)
    assert list(verify_all(url, ids, workers=1, batch=7, **evidence(tmp_path))) == expected
    assert counted["fast"] == len(ids) - 1 and counted["detailed"] == 1  # the disputed game takes the detailed decoder
    assert list(verify_all(url, ids, workers=2, batch=5, **evidence(tmp_path))) == expected


def _tamper(kind: str, url: str, ids: list[str]) -> None:
    """Six kinds of damage, each to its own game: a changed card, a deleted row, a last row that is no JSON,
    a field of the wrong type in the last row, a changed snapshot, a game deleted outright."""
    raw = RawEvents(kind, url)
    snapshots = RawEvents(kind, url, "snapshots")
    try:
        gids = [UUID(g) for g in ids]
        with_cards = next(g for g in gids if any(b'"cards":["' in raw.state(g, v) for v in raw.versions(g)[2:-2]))
        version = next(v for v in raw.versions(with_cards)[2:-2] if b'"cards":["' in raw.state(with_cards, v))
        state = raw.state(with_cards, version)
        raw.set_state(with_cards, version, re.sub(rb'"cards":\["(..)"', b'"cards":["2C"', state, count=1)
                      if b'"cards":["2C"' not in state else state.replace(b'"cards":["2C"', b'"cards":["3C"', 1))
        rest = [g for g in gids if g != with_cards]
        raw.delete(rest[0], raw.versions(rest[0])[len(raw.versions(rest[0])) // 2])
        last = raw.versions(rest[1])[-1]
        raw.set_state(rest[1], last, raw.state(rest[1], last)[:-7])
        last = raw.versions(rest[2])[-1]
        raw.set_state(rest[2], last, raw.state(rest[2], last).replace(b'"prev":"', b'"prev":7,"x":"', 1))
        snapped = next(g for g in rest[3:] if snapshots.versions(g))
        v = snapshots.versions(snapped)[0]
        snap = snapshots.state(snapped, v)
        flipped = (snap.replace(b'"seed_revealed":false', b'"seed_revealed":true', 1) if b'"seed_revealed":false' in snap
                   else snap.replace(b'"seed_revealed":true', b'"seed_revealed":false', 1))
        snapshots.set_state(snapped, v, flipped)
        assert snapshots.state(snapped, v) != snap
        gone = next(g for g in rest[3:] if g != snapped)
        truncate(kind, url, gone, 0)
    finally:
        raw.close()
        snapshots.close()


@pytest.mark.parametrize("kind", STORES)
def test_parallel_verify_finds_the_same_problems_as_one_by_one_on_a_tampered_store(kind, stores, facades, tmp_path):
    url = stores.url(kind)
    arbiter = facades(url, **evidence(tmp_path))
    ids = season(arbiter, docs=12)
    _tamper(kind, url, ids)
    fresh = facades(url, **evidence(tmp_path))
    ids = fresh.verification.game_ids()
    expected = one_by_one(fresh, ids)
    assert sum(not r["ok"] for r in expected) == 6, [r["chain"]["problem"] for r in expected if not r["ok"]]
    assert list(verify_all(url, ids, workers=2, batch=3, **evidence(tmp_path))) == expected
    assert list(verify_all(url, ids, workers=1, **evidence(tmp_path))) == expected


@pytest.mark.parametrize("kind", STORES)
def test_verify_all_keeps_each_verdict_on_the_catalogue_as_verifying_game_by_game_does(kind, stores, facades, tmp_path):
    url = stores.url(kind)
    arbiter = facades(url, **evidence(tmp_path))
    ids = season(arbiter, docs=12)
    _tamper(kind, url, ids)
    fresh = facades(url, **evidence(tmp_path))
    ids = fresh.verification.game_ids()
    reports = list(verify_all(url, ids, workers=2, batch=4, **evidence(tmp_path)))  # marks kept a batch at a time
    marked = {row["id"]: row["integrity"] for row in fresh.lobby.catalogue(limit=1000)}
    one_by_one(fresh, ids)  # each game's verdict kept on its own
    again = {row["id"]: row["integrity"] for row in fresh.lobby.catalogue(limit=1000)}
    deleted = {r["id"] for r in reports if r.get("checkpoint", {}).get("finding") == "deleted"}
    assert deleted and all(marked[r["id"]] is None for r in reports if r["id"] in deleted)  # as game by game: unmarked
    for report in reports:
        if report["id"] not in deleted:
            assert marked[report["id"]]["ok"] is report["ok"]
            assert {**marked[report["id"]], "checked_at": None} == {**again[report["id"]], "checked_at": None}
    assert {row["id"] for row in fresh.lobby.catalogue(tampered=True, limit=1000)} == \
        {r["id"] for r in reports if not r["ok"] and r["id"] not in deleted}


def test_verify_all_json_prints_one_report_a_game_as_json_lines(stores, facades, tmp_path):
    url = stores.url("sqlite")
    arbiter = facades(url)
    ids = season(arbiter, docs=6)
    result = CliRunner().invoke(main, ["verify", "--all", "--json", "--database-url", url, "--workers", "2"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    reports = [json.loads(line) for line in lines]
    assert [r["id"] for r in reports] == ids
    for report in reports:
        assert REPORT_KEYS <= set(report) and report["ok"] is True
        assert report["chain"]["problems"] == [] and isinstance(report["provenance"], list)


def test_verify_all_shows_no_progress_bar_when_not_on_a_terminal(stores, facades, tmp_path):
    url = stores.url("sqlite")
    facades(url)
    season(facades(url), docs=4)
    result = CliRunner().invoke(main, ["verify", "--all", "--database-url", url])  # CliRunner's streams are no terminal
    assert result.exit_code == 0, result.output
    assert "ETA" not in result.output and "verifying" not in result.output and "\x1b[?25l" not in result.output
    assert "events/s" not in result.stderr


def test_verify_all_reports_a_damaged_game_with_exit_1_and_the_others_clean(stores, facades, tmp_path):
    url = stores.url("sqlite")
    arbiter = facades(url)
    ids = season(arbiter, docs=6)
    before = CliRunner().invoke(main, ["verify", "--all", "--json", "--database-url", url])
    signed = [r["id"] for r in map(json.loads, before.stdout.splitlines())  # played here, checkpointed
              if r["checkpoint"]["finding"] == "intact" and not r["provenance"]]
    raw = RawEvents("sqlite", url)
    lengths = {gid: len(raw.versions(UUID(gid))) for gid in signed}
    damaged = min((gid for gid in signed if lengths[gid] > 10), key=lengths.get)  # signed past version 5, no snapshot
    raw.close()
    truncate("sqlite", url, UUID(damaged), 5)
    result = CliRunner().invoke(main, ["verify", "--all", "--json", "--database-url", url])
    assert result.exit_code == 1
    reports = {r["id"]: r for r in map(json.loads, result.stdout.splitlines())}
    assert reports[damaged]["ok"] is False and reports[damaged]["checkpoint"]["finding"] == "truncated", reports[damaged]
    assert all(r["ok"] for gid, r in reports.items() if gid != damaged)


def test_a_seat_that_named_itself_at_the_table_verifies_clean_on_both_roads(stores, facades, tmp_path):
    url = stores.url("sqlite")
    arbiter = facades(url, **evidence(tmp_path))
    table = new_table(arbiter, 3, SHORT)
    arbiter.play.name_seat(table.tokens[0], NameSeat.from_body(table.id, {"name": "Zed"}))
    table.play(5)
    arbiter.lobby.catalogue()  # caught up: both roads then hold the game against the same catalogue row
    (expected,) = one_by_one(arbiter, [table.id])
    assert expected["ok"] is True, expected["chain"]["problem"]
    assert list(verify_all(url, [table.id], workers=1, **evidence(tmp_path))) == [expected]
