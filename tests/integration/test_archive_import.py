"""`arbiter import FILES...` (service.offline.bulk_import): records loaded in bulk keep `arbiter replay`'s verdicts, are stored
as the service stores them, verify clean and are served by the API; an invalid input is refused whole."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner

from api.cli.main import main
from domain.records import parse, replay
from service.verification.bulk import verify_all
from service.offline.bulk_import import build, import_files
from tests.integration.service_support import RawEvents
from tests.conftest import RECORDS
from tests.integration.test_archive_verify import evidence, sample_docs
from service.play.new_games import ImportRecord

STORES = ["sqlite", "postgres"]


def verdict(doc: dict) -> dict:
    return replay(parse(doc)).verdict()


def legal_docs() -> list[dict]:
    return [d for d in sample_docs() if verdict(d)["status"] != "illegal"]


def illegal_docs() -> list[dict]:
    return [d for d in sample_docs() if verdict(d)["status"] == "illegal"]


def import_cli(url: str, *paths, tmp_path) -> tuple[int, str, str]:
    ev = evidence(tmp_path)
    result = CliRunner().invoke(main, ["import", "--json", "--database-url", url, "--key-file", ev["key_file"],
                                       "--checkpoint-log", ev["checkpoint_log"], *map(str, paths)])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("kind", STORES)
def test_imported_games_keep_replays_verdicts_verify_clean_and_are_served(kind, stores, facades, tmp_path):
    url = stores.url(kind)
    docs = legal_docs()[:30] + illegal_docs()[:2]
    folder = tmp_path / "records"
    folder.mkdir()
    for i, doc in enumerate(docs[:10]):
        (folder / f"r{i:02}.json").write_text(json.dumps(doc))
    (folder / f"r{0:02}.expected.json").write_text(json.dumps(verdict(docs[0])))  # skipped like `replay dir/*.json`
    archive = tmp_path / "season.jsonl"
    archive.write_text("".join(json.dumps(d) + "\n" for d in docs[10:]) + "\n")
    code, out, err = import_cli(url, folder, archive, tmp_path=tmp_path)
    assert code == 1, err  # two records have an illegal move
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["source"] for line in lines[:10]] == [str(folder / f"r{i:02}.json") for i in range(10)]
    assert lines[10]["source"] == f"{archive}:1"
    for line, doc in zip(lines, docs, strict=True):
        assert {k: line[k] for k in ("status", "moves_applied", "result", "winner", "illegal", "final")} == verdict(doc)
    arbiter = facades(url, **evidence(tmp_path))
    ids = arbiter.verification.game_ids()
    assert ids == [line["id"] for line in lines]
    reports = list(verify_all(url, ids, workers=2, batch=4, **evidence(tmp_path)))
    assert all(r["ok"] for r in reports), [r for r in reports if not r["ok"]][:1]
    assert all(r["checkpoint"]["finding"] == "intact" and r["engine"]["same"] for r in reports)
    for line in lines[:3]:
        assert arbiter.views.view(line["id"], line["referee_token"])["version"] >= 1
        assert arbiter.views.public(line["id"])["id"] == line["id"]
    for line in lines:
        if line["status"] == "illegal":
            assert arbiter.app.attempts(UUID(line["id"])) is not None  # the refusal is kept, as POST /records keeps it


def test_bulk_rows_are_the_rows_the_service_writes(stores, facades, tmp_path):
    url = stores.url("sqlite")
    arbiter = facades(url, **evidence(tmp_path))
    doc = next(d for d in legal_docs() if verdict(d)["status"] == "finished" and len(d["moves"]) > 20)
    by_service = UUID(arbiter.play.import_record(ImportRecord.from_body(doc))["id"])
    (line,) = import_files(arbiter, [str(_jsonl(tmp_path, [doc]))])
    by_bulk = UUID(line["id"])
    raw = RawEvents("sqlite", url)
    try:
        assert raw.versions(by_bulk) == raw.versions(by_service)
        for version in raw.versions(by_service):
            assert raw.topic(by_bulk, version) == raw.topic(by_service, version)
            mine, theirs = raw.json(by_bulk, version), raw.json(by_service, version)
            assert list(mine) == list(theirs)  # the same fields in the same order
            for varies in ("timestamp", "prev", "seat_token_hashes", "referee_token_hash", "seed"):
                mine.pop(varies, None), theirs.pop(varies, None)
            assert mine == theirs
    finally:
        raw.close()


def _jsonl(tmp_path, docs) -> Path:
    path = tmp_path / "one.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in docs))
    return path


def test_build_gives_no_rows_for_a_record_with_an_illegal_move(stores, facades):
    arbiter = facades(stores.url("memory"))
    assert build(parse(illegal_docs()[0]), arbiter.app.mapper) is None
    assert build(parse(legal_docs()[0]), arbiter.app.mapper) is not None


def test_import_of_a_bad_file_names_every_invalid_record_and_writes_nothing(stores, facades, tmp_path):
    url = stores.url("sqlite")
    good = json.dumps(legal_docs()[0])
    archive = tmp_path / "bad.jsonl"
    archive.write_text(good + "\n{not json\n" + good + "\n")
    not_a_record = tmp_path / "x.json"
    not_a_record.write_text(json.dumps({"format": "arbiter.record/1", "game": "chess", "players": [], "moves": []}))
    code, out, err = import_cli(url, archive, not_a_record, tmp_path=tmp_path)
    assert code == 2
    assert f"{archive}:2: not JSON" in err and f"{not_a_record}: " in err and "nothing imported" in err
    assert "Traceback" not in err and out == ""
    assert facades(url, **evidence(tmp_path)).verification.game_ids() == []
    assert not (tmp_path / "store.checkpoints.jsonl").exists()


def test_import_of_a_missing_path_or_an_empty_directory_is_a_clear_error(stores, tmp_path):
    url = stores.url("sqlite")
    (tmp_path / "empty").mkdir()
    for path, words in ((tmp_path / "nope.jsonl", "no such file or directory"),
                        (tmp_path / "empty", "a directory with no record")):
        code, out, err = import_cli(url, path, tmp_path=tmp_path)
        assert code == 2 and words in err and "Traceback" not in err


def test_a_sample_directory_with_its_expected_verdicts_imports_only_the_records(stores, tmp_path):
    url = stores.url("sqlite")
    folder = tmp_path / "el-royale"
    shutil.copytree(RECORDS / "el-royale", folder)
    code, out, err = import_cli(url, folder, tmp_path=tmp_path)
    assert code in (0, 1), err
    records = sorted(p for p in folder.glob("*.json") if not p.name.endswith(".expected.json"))
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["source"] for line in lines] == [str(p) for p in records]
    for line, path in zip(lines, records):
        expected = json.loads(path.with_name(path.name.removesuffix(".json") + ".expected.json").read_text())
        assert line["status"] == expected["status"] and line["moves_applied"] == expected["moves_applied"]
