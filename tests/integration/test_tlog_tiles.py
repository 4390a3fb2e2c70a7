"""The transparency log served as C2SP tlog-tiles under /api/v1/log (a SQLite file's log and a PostgreSQL table's):
the tiles make the published checkpoint's tree and carry the stored lines, headers as the spec asks, nothing past
the published tree; `arbiter log mirror` copies them to a directory that serves the same bytes, follows the log,
refuses a fork or a log gone back, and `arbiter log check` finds a tile altered on a mirror."""

from __future__ import annotations

import gzip
import shutil
import json
import os

import pytest
from click.testing import CliRunner

from api.cli.main import main
from domain.games import SPECS
from service.evidence import tiles
from service.evidence.checkpoints import FIELDS
from service.evidence.signed_notes import Verifier, open_note
from service.evidence.tree_heads import TreeHead
from tests.integration.evidence_support import new_table

from .tiles_support import served_log


@pytest.fixture(params=["sqlite", "postgres"])
def log(request, stores, tmp_path):
    with served_log(stores.url(request.param)) as served:
        yield served


def head_of(served) -> TreeHead:
    note = served.get("checkpoint")
    return TreeHead.parse(open_note(note, [Verifier.parse(served.key)]).text)


def mirror(served, directory, *extra):
    return CliRunner().invoke(main, ["log", "mirror", str(directory), "--from", served.prefix, "--key", served.key,
                                     *extra])


def test_the_served_tiles_make_the_published_tree_and_carry_the_stored_lines(log):
    table = new_table(log.arbiter).play(12)
    log.grow(600)
    head = head_of(log)
    files, _ = tiles.check_tiles(log.get, head.size, head.root)
    assert head.size > 600 and "tile/1/000.p/2" in files and "tile/entries/001" in files
    leaves = [leaf for path in sorted(files) if path.startswith("tile/entries/")
              for leaf in tiles.read_bundle(files[path], tiles.parse_path(path))]
    stored = log.arbiter.evidence.log.storage.read().split(b"\n")[:-1]
    assert leaves == stored[:head.size]  # leaf i is the log's line i + 1, byte for byte
    assert any(table.id.encode() in leaf for leaf in leaves[:5])


def test_headers_are_the_specs_the_checkpoint_short_lived_tiles_immutable(log):
    log.grow(300)
    checkpoint = log.client.get("/api/v1/log/checkpoint")
    assert checkpoint.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert checkpoint.headers["Cache-Control"] == "no-cache"
    for path in ("tile/0/000", "tile/0/001.p/44", "tile/1/000.p/1", "tile/entries/000", "tile/entries/001.p/44"):
        got = log.client.get(f"/api/v1/log/{path}")
        assert got.status_code == 200, path
        assert got.headers["Content-Type"] == "application/octet-stream"
        assert got.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    plain = log.client.get("/api/v1/log/tile/entries/000").data
    zipped = log.client.get("/api/v1/log/tile/entries/000", headers={"Accept-Encoding": "gzip, identity"})
    assert zipped.headers["Content-Encoding"] == "gzip" and zipped.headers["Vary"] == "Accept-Encoding"
    assert gzip.decompress(zipped.data) == plain and len(zipped.data) < len(plain)


def test_no_tile_past_the_published_tree_is_served_and_a_bad_path_is_named(log):
    log.grow(300)
    size = head_of(log).size
    log.arbiter.evidence.log.append_many([("c0ffee00-0000-4000-8000-000000000000", 1, "0" * 64, "test", 0, "")])
    width = size % 256
    beyond = log.client.get(f"/api/v1/log/tile/0/001.p/{width + 1}")  # its leaf is written, not yet published
    assert beyond.status_code == 404 and f"has {size} leaves" in beyond.get_json()["detail"]
    assert log.client.get(f"/api/v1/log/tile/entries/001.p/{width + 1}").status_code == 404
    log.log.publish()
    assert log.client.get(f"/api/v1/log/tile/entries/001.p/{width + 1}").status_code == 200
    for path, why in (("tile/0/x000/001", "tile/0/001"), ("tile/00/000", "not a tlog-tiles path"),
                      ("tile/0/000.p/256", "1 to 255")):
        got = log.client.get(f"/api/v1/log/{path}")
        assert got.status_code == 404 and why in got.get_json()["detail"], path


def test_a_mirror_directory_serves_the_same_bytes_as_the_server(log, tmp_path):
    log.grow(520)
    got = mirror(log, tmp_path / "m")
    assert got.exit_code == 0, got.output
    files = [p for p in (tmp_path / "m").rglob("*") if p.is_file()]
    assert len(files) == len(list(tiles.tiles_of(head_of(log).size))) + 1
    for path in files:
        relative = path.relative_to(tmp_path / "m").as_posix()
        assert path.read_bytes() == log.get(relative), relative
    assert not [p for p in (tmp_path / "m").rglob(".*")], "no temporary file is left behind"


def test_a_mirror_follows_the_log_writing_only_what_is_new(log, tmp_path):
    game = log.grow(300)
    assert mirror(log, tmp_path / "m").exit_code == 0
    first = (tmp_path / "m/tile/0/000").stat().st_mtime_ns
    log.grow(100, game=None)
    got = mirror(log, tmp_path / "m", "--json")
    assert got.exit_code == 0, got.output
    assert '"previous": ' in got.output and (tmp_path / "m/tile/0/000").stat().st_mtime_ns == first
    check = CliRunner().invoke(main, ["log", "check", str(tmp_path / "m"), "--key", log.key])
    assert check.exit_code == 0 and f"{head_of(log).size} leaves" in check.output, check.output
    assert game


@pytest.mark.parametrize("path, why", [("tile/entries/000", "tile/entries/000: leaf"),
                                       ("tile/0/000", "tile/0/000: its hashes do not make hash 0 of tile/1/000.p/1"),
                                       ("tile/0/001.p/44", "another root"),
                                       ("checkpoint", "does not verify")])
def test_a_tile_altered_on_a_mirror_is_found_and_named(log, tmp_path, path, why):
    log.grow(300)
    assert mirror(log, tmp_path / "m").exit_code == 0
    target = tmp_path / "m" / path
    data = bytearray(target.read_bytes())
    data[20 if path != "checkpoint" else 25] ^= 1
    target.write_bytes(bytes(data))
    got = CliRunner().invoke(main, ["log", "check", str(tmp_path / "m"), "--key", log.key])
    assert got.exit_code == 1 and why in got.output, got.output
    assert "Traceback" not in got.output


def test_a_mirror_refuses_a_fork_and_a_log_gone_back_and_keeps_what_it_held(stores, tmp_path):
    key_file = str(tmp_path / "log.key")
    with served_log(stores.url("sqlite"), key_file=key_file) as a, served_log(stores.url("sqlite"), key_file=key_file) as b:
        a.grow(300)
        b.grow(400)  # the same key and origin, other lines: a second tree the log signed
        assert a.key == b.key
        assert mirror(a, tmp_path / "m").exit_code == 0
        before = {p: p.read_bytes() for p in (tmp_path / "m").rglob("*") if p.is_file()}
        forked = mirror(b, tmp_path / "m")
        assert forked.exit_code == 1 and "does not extend the checkpoint this mirror holds (300 leaves)" in forked.output
        a_bigger = tmp_path / "n"
        assert mirror(b, a_bigger).exit_code == 0
        back = mirror(a, a_bigger)
        assert back.exit_code == 1 and "fewer than the 400" in back.output, back.output
        assert before == {p: p.read_bytes() for p in (tmp_path / "m").rglob("*") if p.is_file()}


def test_a_wrong_key_or_an_unreachable_source_is_named_without_a_traceback(stores, tmp_path):
    with served_log(stores.url("sqlite")) as served:
        served.grow(3)
        other = served.key.replace("arbiter.test/tiles", "arbiter.test/other")
        got = CliRunner().invoke(main, ["log", "mirror", str(tmp_path / "m"), "--from", served.prefix, "--key", other])
        assert got.exit_code == 2 and "--key" in got.output  # its key id no longer matches its name
        url = served.prefix
    gone = CliRunner().invoke(main, ["log", "mirror", str(tmp_path / "m"), "--from", url, "--key", served.key])
    assert gone.exit_code == 2 and "cannot be read" in gone.output and "Traceback" not in gone.output
    assert not os.path.exists(tmp_path / "m" / "checkpoint")


def play_any(served, created: dict, moves: int) -> set[str]:
    """Up to `moves` legal moves of any game through the API (each seat's view lists its legal moves); returns the
    cards every seat held on the way."""
    client, url, seen = served.client, f"/api/v1/games/{created['id']}", set()
    tokens = [s["token"] for s in created["seats"]]
    for _ in range(moves):
        moved = False
        for token in tokens:
            auth = {"Authorization": f"Bearer {token}"}
            view = client.get(f"{url}/view", headers=auth).get_json()
            hand = view["table"].get("hand") or []
            seen |= {c for c in hand if isinstance(c, str)}
            legal = view["table"].get("legal_moves") or []
            plays = [m for m in legal if m.get("type") not in ("pass", "concede")]
            for move in plays + [m for m in legal if m.get("type") == "pass"]:  # a listed move may need a parameter
                if client.post(f"{url}/moves", json=move, headers=auth).status_code == 200:
                    moved = True
                    break
            if moved:
                break
        if not moved:
            break
    return seen


@pytest.mark.parametrize("game", sorted(SPECS))
def test_the_entry_bundles_carry_no_card_of_any_game_only_the_lines_fields(stores, game):
    """Hidden information: a leaf is a checkpoint line (game id, version, heads, counts, time, reason, seq, prev, key
    id, signature), whatever the game; no hand, pile or deck reaches the tiles."""
    spec = SPECS[game]
    with served_log(stores.url("sqlite")) as served:
        created = served.client.post("/api/v1/games", json={
            "game": game, "options": spec.example_options[0],
            "players": [{"name": f"P{i}"} for i in range(spec.min_players)]}).get_json()
        cards = play_any(served, created, 25)
        served.log.publish()
        size = head_of(served).size
        bundles = [served.get(tile.path) for tile in tiles.tiles_of(size) if tile.level is None]
        leaves = [leaf for tile, data in zip([t for t in tiles.tiles_of(size) if t.level is None], bundles)
                  for leaf in tiles.read_bundle(data, tile)]
    assert len(leaves) == size >= 1  # its creation's line at least (and those of the moves a seat's view could make)
    for leaf in leaves:
        doc = json.loads(leaf)
        assert set(doc) <= set(FIELDS), sorted(set(doc) - set(FIELDS))
        assert all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in doc.values())
        assert doc["game"] == created["id"]
    text = b"".join(bundles).decode("utf-8", "replace")
    shown = {c for c in cards if any(ch.isupper() for ch in c) and c in text}  # a card code has an upper-case suit
    assert not shown, f"cards in the entry bundles: {sorted(shown)}"


def test_a_source_serving_an_altered_tile_is_refused_naming_it_and_the_checkpoint_is_not_written(log, tmp_path):
    from service.evidence.tile_mirror import MirrorError, directory_source
    from service.evidence.tile_mirror import mirror as copy

    log.grow(600)
    assert mirror(log, tmp_path / "honest").exit_code == 0
    shutil.copytree(tmp_path / "honest", tmp_path / "evil")
    bundle = tmp_path / "evil/tile/entries/001"
    data = bytearray(bundle.read_bytes())
    data[30] ^= 1
    bundle.write_bytes(bytes(data))
    key = Verifier.parse(log.key)
    with pytest.raises(MirrorError, match=r"^the evil one: tile/entries/001: leaf 256 does not hash"):
        copy(directory_source(tmp_path / "evil"), tmp_path / "new", key, "the evil one")
    assert not (tmp_path / "new/checkpoint").exists() and not (tmp_path / "new/tile/entries/001").exists()
    shutil.copytree(tmp_path / "evil", tmp_path / "mine")  # now the mirror's own copy is the altered one
    (tmp_path / "mine/checkpoint").unlink()
    (tmp_path / "mine/checkpoint").write_bytes((tmp_path / "honest/checkpoint").read_bytes())
    with pytest.raises(MirrorError, match=r"^this mirror's copy in .*mine: tile/entries/001: leaf 256"):
        copy(directory_source(tmp_path / "honest"), tmp_path / "mine", key, "the log")
