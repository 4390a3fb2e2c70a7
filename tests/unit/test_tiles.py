"""C2SP tlog-tiles (service.evidence.tiles): paths written and read as the spec writes them, the tiles a tree serves
(the spec's own examples), a tile's hashes as the spec defines them, entry bundles, and the check that names the
altered file."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.evidence import merkle, tiles
from service.evidence.tiles import Tile, TileError


def a_tree(n: int) -> tuple[list[bytes], merkle.MemoryHashes]:
    leaves = [f'{{"leaf":{i}}}'.encode() for i in range(n)]
    hashes = merkle.MemoryHashes()
    for leaf in leaves:
        hashes.append_leaf(leaf)
    return leaves, hashes


def served(leaves: list[bytes], hashes: merkle.MemoryHashes) -> dict[str, bytes]:
    """Every tile of the tree, by path, as the log serves them."""
    out = {}
    for tile in tiles.tiles_of(len(leaves)):
        if tile.level is None:
            out[tile.path] = tiles.entry_bundle(leaves[tile.first:tile.first + tile.width], tile.first)
        else:
            out[tile.path] = tiles.hash_tile(tile, hashes.read)
    return out


def mth(leaves: list[bytes]) -> bytes:
    """RFC 6962's MTH written from its definition (the spec's formula uses it)."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return hashlib.sha256(b"\x01" + mth(leaves[:k]) + mth(leaves[k:])).digest()


def test_an_index_is_written_in_groups_of_three_digits_all_but_the_last_starting_with_x():
    assert Tile(0, 1234067).path == "tile/0/x001/x234/067"  # the spec's example
    assert Tile(None, 5, 17).path == "tile/entries/005.p/17"
    assert Tile(3, 1000).path == "tile/3/x001/000"
    assert Tile(0, 0).path == "tile/0/000"


@pytest.mark.parametrize("path", ["tile/0/x001/x234/067", "tile/entries/005.p/17", "tile/63/000.p/1",
                                  "tile/2/x999/999.p/255"])
def test_a_path_reads_back_to_the_tile_that_writes_it(path):
    assert tiles.parse_path(path).path == path


@pytest.mark.parametrize("path, why", [
    ("tile/01/000", "not a tlog-tiles path"),  # a level with a leading zero
    ("tile/64/000", "above 63"),
    ("tile/0/1", "not a tlog-tiles path"),  # not three digits
    ("tile/0/001/002", "not a tlog-tiles path"),  # a group before the last without its x
    ("tile/0/x000/001", "not how the spec writes"),  # 1 has one way to be written
    ("tile/0/000.p/0", "not a tlog-tiles path"),  # empty tiles are never served
    ("tile/0/000.p/256", "1 to 255"),
    ("tile/0/000.p/007", "not a tlog-tiles path"),
    ("tile/data/000", "not a tlog-tiles path"),
    ("tile/entries/000/", "not a tlog-tiles path"),
])
def test_a_path_the_spec_does_not_write_is_refused_naming_why(path, why):
    with pytest.raises(TileError, match=why):
        tiles.parse_path(path)


def test_a_tree_of_70000_leaves_serves_the_tiles_the_spec_lists():
    hashes = [t for t in tiles.tiles_of(70_000) if t.level is not None]
    assert [t for t in hashes if t.level == 0 and t.full] == [Tile(0, n) for n in range(273)]
    assert [t for t in hashes if not (t.level == 0 and t.full)] == [Tile(0, 273, 112), Tile(1, 0), Tile(1, 1, 17),
                                                                    Tile(2, 0, 1)]
    bundles = [t for t in tiles.tiles_of(70_000) if t.level is None]
    assert len(bundles) == 274 and bundles[-1] == Tile(None, 273, 112)


def test_a_tree_of_256_leaves_is_one_full_level_0_tile_and_a_level_1_tile_of_width_1():
    assert list(tiles.tiles_of(256)) == [Tile(None, 0), Tile(0, 0), Tile(1, 0, 1)]
    assert list(tiles.tiles_of(0)) == []


@pytest.mark.parametrize("n", [1, 255, 256, 257, 600, 65_536 + 3])
def test_hash_i_of_tile_n_at_level_l_is_the_spec_formula(n):
    leaves, hashes = a_tree(n)
    for tile in tiles.tiles_of(n):
        if tile.level is None or (tile.level == 0 and tile.index not in (0, n // 256)):
            continue  # the level-0 tiles between hold leaf hashes as every other does
        got = tiles.read_hashes(tiles.hash_tile(tile, hashes.read), tile)
        span = 256 ** tile.level
        for i in (0, tile.width - 1):
            start = (tile.index * 256 + i) * span
            assert got[i] == mth(leaves[start:start + span]), (tile, i)


def test_an_entry_bundle_is_each_leaf_behind_its_two_byte_big_endian_length():
    bundle = tiles.entry_bundle([b"ab", b"", b"x" * 300])
    assert bundle == b"\x00\x02ab" + b"\x00\x00" + b"\x01\x2c" + b"x" * 300
    assert tiles.read_bundle(bundle, Tile(None, 0, 3)) == [b"ab", b"", b"x" * 300]


def test_a_leaf_over_65535_bytes_is_refused_naming_it():
    with pytest.raises(TileError, match="leaf 7 is 65536 bytes"):
        tiles.entry_bundle([b"x" * 65_536], first=7)


@pytest.mark.parametrize("data, why", [(b"\x00\x05ab", "says 5 bytes"), (b"\x00", "cut inside"),
                                       (b"\x00\x01a\x00\x01b", "holds 2 leaves, its path says 3")])
def test_a_bundle_cut_short_or_of_another_width_is_refused(data, why):
    with pytest.raises(TileError, match=why):
        tiles.read_bundle(data, Tile(None, 0, 3))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 2000), st.data())
def test_the_root_folded_from_the_tiles_is_the_trees_for_every_smaller_size(n, data):
    leaves, hashes = a_tree(n)
    files, tree = tiles.check_tiles(served(leaves, hashes).get, n, merkle.tree_hash(n, hashes.read))
    old = data.draw(st.integers(0, n))
    assert tree.root(old) == merkle.tree_hash(old, hashes.read)


@pytest.fixture(scope="module")
def log_of_600():
    leaves, hashes = a_tree(600)
    return served(leaves, hashes), merkle.tree_hash(600, hashes.read)


def flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1:]


@pytest.mark.parametrize("path, why", [
    ("tile/entries/001", "leaf 300 does not hash to its place in tile/0/001"),
    ("tile/entries/002.p/88", "leaf 512 does not hash to its place in tile/0/002.p/88"),
    ("tile/0/001", "tile/0/001: its hashes do not make hash 1 of tile/1/000.p/2"),
    ("tile/1/000.p/2", "its hashes do not make hash|another root"),
    ("tile/0/002.p/88", "another root than the checkpoint's"),
])
def test_one_altered_byte_in_any_tile_is_found_and_the_file_named(log_of_600, path, why):
    files, root = log_of_600
    altered = dict(files)
    altered[path] = flip(files[path], 44 * 14 + 5  # each leaf of entries/001 is 14 bytes with its length
                          if path == "tile/entries/001" else 5)
    with pytest.raises(TileError, match=why):
        tiles.check_tiles(altered.get, 600, root)


def test_a_missing_tile_or_one_of_another_length_is_named(log_of_600):
    files, root = log_of_600
    with pytest.raises(TileError, match="tile/0/000: missing"):
        tiles.check_tiles({k: v for k, v in files.items() if k != "tile/0/000"}.get, 600, root)
    with pytest.raises(TileError, match="tile/0/002.p/88: 2784 bytes, its path says 88 hashes"):
        tiles.check_tiles({**files, "tile/0/002.p/88": files["tile/0/002.p/88"][:-32]}.get, 600, root)


def test_tiles_of_another_tree_are_refused_by_the_checkpoints_root(log_of_600):
    files, _ = log_of_600
    with pytest.raises(TileError, match="another root"):
        tiles.check_tiles(files.get, 600, hashlib.sha256(b"another").digest())


def test_a_tile_is_served_only_for_a_tree_that_fills_it():
    assert tiles.covers(Tile(0, 1, 44), 300) and not tiles.covers(Tile(0, 1, 45), 300)
    assert tiles.covers(Tile(1, 0, 1), 256) and not tiles.covers(Tile(1, 0, 2), 511)
    assert not tiles.covers(Tile(None, 1), 511) and tiles.covers(Tile(None, 1), 512)
