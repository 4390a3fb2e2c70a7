"""docs/api.md's limits table held against the server: the table is parsed, and every row is probed at its bound (taken)
and just beyond it (answered as the row's last column says). A row without a probe, or a probe for a row the table no
longer has, fails: the table and the server cannot drift apart."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from api import create_app
from domain.attempts import KEPT_PER_SEAT
from service.play import referee as referee_module

from .api_support import API, CheckedClient, create, players

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
RECORD = Path(__file__).resolve().parent.parent / "records" / "el-royale" / "example1-00-classic.json"


def limits_table() -> dict[str, tuple[str, str]]:
    """The rows of docs/api.md's "## Limits" table: what -> (bound, beyond it)."""
    section = DOC.read_text().split("\n## Limits\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and line.startswith("|") and not set(cells[0]) <= set("-") and cells[0] != "what":
            rows[cells[0]] = (cells[1], cells[2])
    return rows


_VALUE = r"-?\(?2\^\d+ - 1\)?|-?\d+"


def _value(text: str) -> int:
    power = re.fullmatch(r"(-?)\(?2\^(\d+) - 1\)?", text)
    return (-1 if power.group(1) else 1) * (2 ** int(power.group(2)) - 1) if power else int(text)


def number(text: str) -> int:
    """The first number written in a cell ("256 KiB" -> 256, "500" -> 500)."""
    return _value(re.search(_VALUE, text).group())


def bounds(text: str) -> tuple[int, int]:
    """(low, high) of the cell's "A to B", each a plain number or ±(2^N - 1)."""
    found = re.search(f"({_VALUE}) to ({_VALUE})", text)
    return _value(found.group(1)), _value(found.group(2))


@pytest.fixture
def app():
    app = create_app({"DATABASE_URL": "memory://", "STREAM_SECONDS": 1})
    app.test_client_class = CheckedClient
    yield app
    app.extensions["arbiter"].app.close()


def body(client, text: str):
    return client.post(f"{API}/games", data=text, content_type="application/json")


def game_with(extra: str) -> str:
    return '{"game": "el-royale", "players": %s, %s}' % (json.dumps(players(2)), extra)


def problem(response, status: int, beyond: str) -> dict:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:300])
    assert response.mimetype == "application/problem+json"
    assert str(status) in beyond
    return response.get_json()


def probe_body(app, bound, beyond):
    client = app.test_client()
    limit = number(bound) * 1024
    pad = limit - len(game_with('"pad": ""')) - 100
    assert body(client, game_with(f'"pad": "{"x" * pad}"')).status_code == 422  # read: an unknown field, not too large
    got = problem(body(client, game_with(f'"pad": "{"x" * (limit + 1)}"')), 413, beyond)
    assert got["title"] in beyond


def probe_syntax(app, bound, beyond):
    got = problem(body(app.test_client(), game_with('"seed": NaN')), 400, beyond)
    assert got["title"] in beyond


def probe_integers(app, bound, beyond):
    low, high = bounds(bound)
    client = app.test_client()
    assert body(client, game_with(f'"dealer": {high}')).get_json().get("field") == "dealer"  # read, then not a seat
    got = problem(body(client, game_with(f'"dealer": {high + 1}')), 422, beyond)
    assert got["field"] == "dealer"
    assert problem(body(client, game_with(f'"dealer": {low - 1}')), 422, beyond)["field"] == "dealer"


def probe_floats(app, bound, beyond):
    got = problem(body(app.test_client(), game_with('"options": {"edition": 1e999}')), 422, beyond)
    assert got["field"] == "options.edition"


def probe_nesting(app, bound, beyond):
    levels = number(bound)
    client = app.test_client()
    within = "[" * (levels - 1) + "]" * (levels - 1)  # inside the body's own object: `levels` in all
    assert "nested" not in json.dumps(body(client, game_with(f'"pad": {within}')).get_json())
    deeper = "[" * levels + "]" * levels
    got = problem(body(client, game_with(f'"pad": {deeper}')), 422, beyond)
    assert f"nest at most {levels} levels" in got["detail"]


def probe_strings(app, bound, beyond):
    client = app.test_client()
    named = players(2)
    named[0]["name"] = "North\u0000"
    got = problem(client.post(f"{API}/games", json={"game": "el-royale", "players": named}), 422, beyond)
    assert got["field"] == "players[0].name"
    got = problem(body(client, game_with('"pad": "\\ud800"')), 422, beyond)
    assert got["field"] == "pad"


def probe_offset_after(app, bound, beyond):
    low, high = bounds(bound)
    client = app.test_client()
    table = create(client, 2)
    assert client.get(f"{API}/games?offset={high}").status_code == 200
    assert client.get(f"{table.url}/events?after={high}", headers=table.referee).status_code == 200
    for query in (f"games?offset={high + 1}", f"games?offset={low - 1}"):
        assert problem(client.get(f"{API}/{query}"), 422, beyond)["field"] == "offset"
    assert problem(client.get(f"{table.url}/events?after={high + 1}", headers=table.referee), 422, beyond)["field"] == "after"


def probe_version_length(app, bound, beyond):
    low, high = bounds(bound)
    client = app.test_client()
    table = create(client, 2)
    assert client.get(f"{table.url}/replay?version={low}", headers=table.referee).status_code == 200
    assert client.get(f"{table.url}/audit/verify?length={low}", headers=table.referee).status_code == 200
    for value in (low - 1, high + 1):
        assert problem(client.get(f"{table.url}/replay?version={value}", headers=table.referee), 422, beyond)["field"] == "version"
        assert problem(client.get(f"{table.url}/audit/verify?length={value}", headers=table.referee), 422, beyond)["field"] == "length"


def probe_limit(app, bound, beyond):
    low, high = bounds(bound)
    client = app.test_client()
    assert client.get(f"{API}/games?limit={low}").status_code == client.get(f"{API}/games?limit={high}").status_code == 200
    for value in (low - 1, high + 1):
        assert problem(client.get(f"{API}/games?limit={value}"), 422, beyond)["field"] == "limit"


def probe_game_filter(app, bound, beyond):
    client = app.test_client()
    assert client.get(f"{API}/games?game=el-royale").status_code == 200
    assert problem(client.get(f"{API}/games?game=chess"), 422, beyond)["field"] == "game"


def cli(*args: str) -> tuple[int, str]:
    """Run `arbiter ARGS` in process: (exit code, everything it printed); a traceback fails the probe."""
    from click.testing import CliRunner

    from api.cli.main import main

    result = CliRunner().invoke(main, list(args))
    shown = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in shown
    return result.exit_code, " ".join(shown.split())


def probe_keys(app, bound, beyond, tmp_path=None):
    keys = number(bound.replace(",", ""))
    client = app.test_client()
    wide = lambda n: '{' + ",".join(f'"k{i}": 0' for i in range(n)) + '}'
    assert "keys" not in json.dumps(body(client, game_with(f'"options": {wide(keys)}')).get_json())
    got = problem(body(client, game_with(f'"options": {wide(keys + 1)}')), 422, beyond)
    assert got["field"] == "options" and f"at most {keys:,}" in got["detail"]
    path = tmp_path / "wide.json"
    path.write_text(wide(keys + 1))
    code, shown = cli("proof", "check", str(path), "--key", "x")
    assert code == 2 and "exit 2" in beyond and str(path) in shown and f"at most {keys:,}" in shown


def probe_string(app, bound, beyond, tmp_path=None):
    characters = number(bound.replace(",", ""))
    record = json.loads(RECORD.read_text())
    path = tmp_path / "long.json"
    path.write_text(json.dumps({**record, "moves": [*record["moves"], {"seat": 0, "type": "say", "text": "x" * characters}]}))
    code, shown = cli("replay", "--json", str(path))
    assert "at most" not in shown, "a string at the bound is read (and the say after the end is illegal)"
    path.write_text(json.dumps({**record, "players": [{"name": "x" * (characters + 1)}, *record["players"][1:]]}))
    code, shown = cli("replay", "--json", str(path))
    assert code == 2 and "exit 2" in beyond and f"players[0].name: a string of {characters + 1:,} characters" in shown
    assert problem(body(app.test_client(), game_with(f'"pad": "{"x" * (characters + 1)}"')), 413, "413")


def probe_file(app, bound, beyond, tmp_path=None):
    mib = number(bound)
    limit = mib * 1024 * 1024
    record = RECORD.read_text().replace("\n", "")
    padded = record[:-1] + ', "pad": "' + "x" * (limit - len(record) - 20) + '"}'
    path = tmp_path / "big.json"
    path.write_text(padded)
    code, shown = cli("replay", "--json", str(path))
    assert "too large" not in shown, "a file at the bound is read"
    path.write_text(record[:-1] + ', "pad": "' + "x" * limit + '"}')
    code, shown = cli("proof", "check", str(path), "--key", "x")
    assert code == 2 and str(path) in shown and f"{mib} MiB" in shown
    archive = tmp_path / "big.jsonl"
    archive.write_text(record + "\n" + record[:-1] + ', "pad": "' + "x" * limit + '"}\n')
    code, shown = cli("replay", "--json", str(archive))
    assert code == 2 and "line 2" in shown and f"{mib} MiB" in shown and "exit 2" in beyond


def idle_seat(client, table) -> int:
    return 1 - client.get(f"{table.url}/view", headers=table.referee).get_json()["table"]["to_act"]


def refuse(client, table, seat: int):
    return client.post(f"{table.url}/moves", headers=table.seat(seat), json={"type": "pass"})


def probe_refusals_per_window(app, bound, beyond, monkeypatch=None):
    kept, seconds = (int(n) for n in re.findall(r"\d+", bound))
    client = app.test_client()
    table = create(client, 2)
    seat = idle_seat(client, table)
    assert [refuse(client, table, seat).get_json().get("attempt") for _ in range(kept)] == list(range(1, kept + 1))
    frozen = referee_module._now()  # the clock stands still: a slow machine cannot outlast the window
    monkeypatch.setattr(referee_module, "_now", lambda: frozen)
    over = refuse(client, table, seat)
    problem(over, 429, beyond)
    assert "Retry-After" in beyond and 1 <= int(over.headers["Retry-After"]) <= seconds
    assert "not kept" in over.get_json()["detail"]


def probe_refusals_in_all(app, bound, beyond, monkeypatch=None):
    kept = number(bound)
    assert kept == KEPT_PER_SEAT
    client = app.test_client()
    table = create(client, 2)
    seat = idle_seat(client, table)
    clock = [referee_module._now()]

    def later() -> float:  # each refusal 4 s after the one before: 15 a minute, never the window's bound
        clock[0] += 4
        return clock[0]

    monkeypatch.setattr(referee_module, "_now", later)
    numbers = [refuse(client, table, seat).get_json().get("attempt") for _ in range(kept)]
    assert numbers == list(range(1, kept + 1))
    past = refuse(client, table, seat)
    got = problem(past, 422, beyond)
    assert "attempt" not in got and got["rule"]


def probe_last_event_id(app, bound, beyond):
    low, high = bounds(bound)
    client = app.test_client()
    table = create(client, 2)
    ids = lambda r: [int(line[4:]) for line in r.get_data(as_text=True).splitlines() if line.startswith("id: ")]
    whole = ids(client.get(f"{table.url}/stream", headers=table.referee))
    assert whole and whole[0] == 1
    for start in (str(low - 5), "not a number"):  # below the bound, and not an integer: "resumes from the start"
        resumed = client.get(f"{table.url}/stream", headers={**table.referee, "Last-Event-ID": start})
        assert resumed.status_code == 200 and ids(resumed) == whole, "resumes from the start"
    assert ids(client.get(f"{table.url}/stream", headers={**table.referee, "Last-Event-ID": str(high + 1)})) == []


PROBES = {
    "request body": probe_body,
    "JSON syntax": probe_syntax,
    "integers in any JSON body or record": probe_integers,
    "floats": probe_floats,
    "nesting of objects and arrays": probe_nesting,
    "strings and keys": probe_strings,
    "keys in one object": probe_keys,
    "characters in one string": probe_string,
    "a file read as JSON, or one line of a JSON Lines file (records, archives, bundles, receipts, proof bundles)": probe_file,
    "`offset`, `after` (query)": probe_offset_after,
    "`version` (replay), `length` (audit/verify)": probe_version_length,
    "`limit` (catalogue)": probe_limit,
    "`game` (catalogue filter)": probe_game_filter,
    "refused attempts kept, per seat and game": probe_refusals_per_window,
    "refused attempts kept, per seat and game, in all": probe_refusals_in_all,
    "`Last-Event-ID` (stream)": probe_last_event_id,
}


def test_every_row_of_the_limits_table_has_a_probe_and_every_probe_a_row():
    assert set(limits_table()) == set(PROBES)


@pytest.mark.parametrize("what", list(PROBES))
def test_the_server_keeps_the_documented_limit(app, what, monkeypatch, tmp_path):
    bound, beyond = limits_table()[what]
    probe = PROBES[what]
    wants = probe.__code__.co_varnames
    extra = {k: v for k, v in {"monkeypatch": monkeypatch, "tmp_path": tmp_path}.items() if k in wants}
    probe(app, bound, beyond, **extra)
