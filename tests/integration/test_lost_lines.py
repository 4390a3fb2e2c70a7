"""Checkpoint lines deleted, altered or cut behind the service's back, on a SQLite store's file log and a PostgreSQL
store's table log: `arbiter verify --all` names the game each gone line held (its row says which line and version),
still checks every line after it (a game whose latest line comes later is intact), recomputes the published tree with
the hash the next line names, and, for a cut log, names the games whose versions no line left signs. Exit 1, no
traceback."""

from __future__ import annotations

import json

import pytest
from psycopg import sql

from service.evidence.keys import canonical
from tests.integration.evidence_support import SHORT, new_table, verify_all


@pytest.fixture(params=["sqlite", "postgres"])
def played(request, stores, facades, tmp_path):
    """(url, arbiter, finished, running, verify args): a game played to its end, then another game whose lines all
    come after that end's line, and a checkpoint of the tree published."""
    url = stores.url(request.param)
    key_file = tmp_path / "signing.key"
    arbiter = facades(url, key_file=str(key_file))
    finished = new_table(arbiter, 3, SHORT).play_to_end()
    running = new_table(arbiter, 4).play(25)
    assert not running.over()
    arbiter.evidence.transparency.publish()
    return url, arbiter, finished, running, ["--key-file", str(key_file), "--workers", "1"]


def lines_of(arbiter) -> list[bytes]:
    return arbiter.evidence.log.storage.read().splitlines()


def end_line(arbiter, table) -> tuple[int, dict]:
    """(seq, line) of a finished game's end."""
    for raw in lines_of(arbiter):
        doc = json.loads(raw)
        if doc["game"] == table.id and doc["reason"] == "end":
            return doc["seq"], doc
    raise AssertionError("the game has no end line")


def _owner(arbiter):
    """A connection as the store's login, which owns the evidence schema (it may delete, unlike the writer role)."""
    from service.adapters.stores import connect

    conn = connect(arbiter.evidence.tables.env)
    conn.autocommit = True
    return conn


def delete_lines(arbiter, first: int, last: int) -> None:
    """Delete lines `first` to `last` of the log, as whoever holds its file or owns its table."""
    storage = arbiter.evidence.log.storage
    if storage.path is not None:
        kept = [raw for n, raw in enumerate(lines_of(arbiter), start=1) if not first <= n <= last]
        storage.path.write_bytes(b"".join(raw + b"\n" for raw in kept))
        return
    with _owner(arbiter) as conn:
        conn.execute(sql.SQL("DELETE FROM {} WHERE seq BETWEEN %s AND %s").format(
            sql.Identifier(storage.tables.schema, "checkpoints")), (first, last))


def alter_line(arbiter, seq: int, change: dict) -> None:
    """Line `seq` of the log changed without its key (its signature no longer holds)."""
    storage = arbiter.evidence.log.storage
    lines = lines_of(arbiter)
    altered = canonical({**json.loads(lines[seq - 1]), **change})
    if storage.path is not None:
        lines[seq - 1] = altered
        storage.path.write_bytes(b"".join(raw + b"\n" for raw in lines))
        return
    with _owner(arbiter) as conn:
        conn.execute(sql.SQL("UPDATE {} SET line = %s WHERE seq = %s").format(
            sql.Identifier(storage.tables.schema, "checkpoints")), (altered.decode(), seq))


def reports(url: str, extra: list[str]) -> tuple[int, dict[str, dict], str]:
    """`verify --all --json`: (exit code, each game's report by id, what went to stderr too)."""
    code, output, error = verify_all(url, "--json", *extra)
    assert error is None or isinstance(error, SystemExit), repr(error)
    rows = {}
    for line in output.splitlines():
        if line.startswith("{"):
            doc = json.loads(line)
            rows[doc["id"]] = doc
    return code, rows, output


def summary(url: str, extra: list[str]) -> str:
    """`verify --all` as a referee reads it, its lines joined again where the terminal wrapped them."""
    code, output, _ = verify_all(url, *extra)
    assert code == 1 and "Traceback" not in output, output
    return " ".join(output.split())


@pytest.mark.parametrize("tamper", ["deleted", "altered"])
def test_a_line_gone_mid_log_names_its_game_and_the_lines_after_it_are_still_checked(played, tamper):
    url, arbiter, finished, running, extra = played
    seq, end = end_line(arbiter, finished)
    assert seq < len(lines_of(arbiter)) - 2, "the running game's lines come after the end's"
    if tamper == "deleted":
        delete_lines(arbiter, seq, seq)
    else:
        alter_line(arbiter, seq, {"version": end["version"] - 1})

    code, rows, output = reports(url, extra)

    assert code == 1
    gone = rows[finished.id]["checkpoint"]
    assert gone["ok"] is False and gone["finding"] == "lost", gone
    said = f"line {seq} of the checkpoint log, which signed its version {finished.version}, is gone ({tamper}; " \
           f"line {seq + 1} names it)"
    assert gone["lost"] == [said] and gone["status"].startswith(f"{said}; its latest line left: matches checkpoint"), gone
    later = rows[running.id]["checkpoint"]
    assert later["ok"] is True and later["finding"] == "intact" and later["checkpoint"]["seq"] > seq, later
    assert rows[running.id]["ok"] is True
    assert "transparency log: " not in output, "the published tree is recomputed with the hash the next line names"

    text = summary(url, extra)
    assert f"BROKEN at line {seq}:" in text
    assert f"line {seq} ({tamper}): gone; line {seq} signed game {finished.id} at version {finished.version} " \
           f"(line {seq + 1} says)" in text
    assert f"the lines after them were still checked; 1 game(s) lost lines: {finished.id}" in text
    assert "1 with problems" in text
    assert "holds the stored lines, with the hash of each line that is gone as the line after it names it" in text


def test_a_game_whose_end_line_is_gone_and_its_store_cut_back_to_its_last_line_left_is_still_named(played):
    """The issue's case: the log's line of a game's end deleted, and the store's last events with it."""
    from tests.integration.evidence_support import truncate

    url, arbiter, finished, running, extra = played
    seq, end = end_line(arbiter, finished)
    left = max(json.loads(raw)["version"] for raw in lines_of(arbiter)[:seq - 1]
               if json.loads(raw)["game"] == finished.id)
    delete_lines(arbiter, seq, seq)
    truncate("postgres" if url.startswith("postgresql") else "sqlite", url, finished.gid, left)

    code, rows, _ = reports(url, extra)

    assert code == 1
    checkpoint = rows[finished.id]["checkpoint"]
    assert checkpoint["ok"] is False and checkpoint["finding"] == "lost", checkpoint
    assert f"line {seq} of the checkpoint log, which signed its version {end['version']}, is gone" in checkpoint["status"]
    assert f"the store ends at version {left}: versions {left + 1} to {end['version']} are gone too" in checkpoint["status"]
    assert rows[running.id]["ok"] is True


def test_the_tail_cut_names_the_games_whose_versions_no_line_left_signs(played):
    url, arbiter, finished, running, extra = played
    total = len(lines_of(arbiter))
    mine = [json.loads(raw)["seq"] for raw in lines_of(arbiter) if json.loads(raw)["game"] == running.id]
    first = mine[1]  # every line of the running game but its first (created) is cut
    delete_lines(arbiter, first, total)

    code, rows, _ = reports(url, extra)

    assert code == 1
    cut = rows[running.id]["checkpoint"]
    assert cut["ok"] is False and cut["finding"] == "lost", cut
    signed = json.loads(lines_of(arbiter)[mine[0] - 1])["version"]
    assert cut["lost"] == [(f"no line left signs its versions {signed + 1} to {running.version}, and the checkpoint log "
                            f"lost lines {first} to {total} (cut), which nothing left names: its line(s) may have been "
                            "among them")], cut
    assert rows[finished.id]["ok"] is True, "its end line is left, and signs all its store holds"

    text = summary(url, extra)
    assert f"BROKEN at line {first}: lines {first} to {total} are gone: the checkpoint published at" in text
    assert f"signed {total} lines, the log holds {first - 1} (the log was cut or rolled back)" in text
    assert f"lines {first} to {total} (cut): gone; the checkpoint published at" in text
    assert f"1 game(s) lost lines: {running.id}" in text
    assert f"lines {first} to {total} are gone (the log was cut or rolled back)" in text  # the transparency log's own


def test_a_single_game_s_verification_names_its_gone_line_too(played, facades):
    url, arbiter, finished, _, extra = played
    seq, _ = end_line(arbiter, finished)
    delete_lines(arbiter, seq, seq)

    report = facades(url, key_file=extra[1]).verification.verify(finished.id)

    assert report["ok"] is False and report["checkpoint"]["finding"] == "lost"
    assert f"line {seq} of the checkpoint log" in report["checkpoint"]["status"]


def test_a_game_whose_only_lines_are_gone_and_whose_store_lost_it_is_still_listed_and_named(played):
    from tests.integration.evidence_support import delete_game

    url, arbiter, finished, running, extra = played
    mine = [json.loads(raw)["seq"] for raw in lines_of(arbiter) if json.loads(raw)["game"] == finished.id]
    assert mine == list(range(mine[0], mine[-1] + 1)), "the finished game's lines come one after another"
    delete_lines(arbiter, mine[0], mine[-1])
    delete_game("postgres" if url.startswith("postgresql") else "sqlite", url, finished.gid)

    code, rows, _ = reports(url, extra)

    assert code == 1 and finished.id in rows, "listed though neither the store nor a line left holds it"
    checkpoint = rows[finished.id]["checkpoint"]
    assert checkpoint["ok"] is False and checkpoint["finding"] == "lost"
    assert checkpoint["status"].endswith(f"version {finished.version}, is gone (deleted; line {mine[-1] + 1} names it); "
                                         "the store holds no event of this game either"), checkpoint
    assert rows[running.id]["ok"] is True
