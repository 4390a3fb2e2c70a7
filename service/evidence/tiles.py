"""C2SP tlog-tiles (https://c2sp.org/tlog-tiles): the transparency log's Merkle tree and leaves as static files.

    tile/<L>/<N>[.p/<W>]        hash tile: the hashes of the complete subtrees of 256^L leaves, N*256 to N*256+W-1
    tile/entries/<N>[.p/<W>]    entry bundle: leaves N*256 to N*256+W-1, each a 2-byte big-endian length and bytes

A full tile is 256 hashes (8,192 bytes) or 256 leaves; for a tree of size s the rightmost tile of level L is partial
with floor(s / 256^L) mod 256 hashes (none when that is 0: no empty tile exists). N is written in groups of three
digits, every group but the last prefixed with `x` (1234067: `x001/x234/067`). Leaf hashes and inner hashes are
RFC 6962's (service.evidence.merkle), so the tiles are another encoding of the same tree the proof routes prove.

Pure: what a tree of a size serves (`tiles_of`), one tile's bytes from the tree's stored hashes or its leaves, a
path read back strictly (`parse_path`: TileError names what is wrong), and the check of a whole set of tiles against
a checkpoint (`check_tiles`), which names the file that does not hold.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from . import merkle

WIDTH = 256  # hashes in a full tile, leaves in a full entry bundle
LEVEL_BITS = 8  # a tile level is 8 levels of the binary tree
MAX_LEAF = 0xFFFF  # an entry bundle's length prefix is 2 bytes
ENTRIES = "entries"


class TileError(ValueError):
    """A tile path that is not one, a tile that is not (yet) served, or a tile that does not hold (names which);
    `tile` is the file at fault where one is."""

    def __init__(self, message: str, tile: "Tile | None" = None):
        super().__init__(message)
        self.tile = tile


@dataclass(frozen=True)
class Tile:
    """One tile: its level (None for an entry bundle), its index N and its width W (WIDTH when full)."""

    level: int | None
    index: int
    width: int = WIDTH

    @property
    def full(self) -> bool:
        return self.width == WIDTH

    @property
    def path(self) -> str:
        """The tile's path under the log's prefix, e.g. `tile/0/x001/x234/067.p/5`."""
        groups = [f"{self.index % 1000:03d}"]
        n = self.index // 1000
        while n:
            groups.insert(0, f"x{n % 1000:03d}")
            n //= 1000
        where = "/".join(groups) + ("" if self.full else f".p/{self.width}")
        return f"tile/{ENTRIES if self.level is None else self.level}/{where}"

    @property
    def first(self) -> int:
        """The position, among the hashes of its level (leaves for a bundle), of the tile's first one."""
        return self.index * WIDTH

    def __str__(self) -> str:
        return self.path


_PATH = re.compile(r"tile/(entries|0|[1-9][0-9]?)/((?:x[0-9]{3}/)*)([0-9]{3})(?:\.p/([1-9][0-9]{0,2}))?")


def parse_path(path: str) -> Tile:
    """The tile a path names (`tile/...`, as the spec writes it and nothing else); raises TileError naming the part
    that is wrong."""
    match = _PATH.fullmatch(path)
    if match is None:
        raise TileError(f"{path[:120]!r} is not a tlog-tiles path: expected tile/<L>/<N>[.p/<W>] or "
                        "tile/entries/<N>[.p/<W>], L a level from 0 to 63 without leading zeros, N in groups of three "
                        "digits all but the last starting with x (1234067 is x001/x234/067), W from 1 to 255")
    level_text, groups, last, width_text = match.groups()
    level = None if level_text == ENTRIES else int(level_text)
    if level is not None and level > 63:
        raise TileError(f"{path[:120]!r}: level {level} is above 63")
    width = WIDTH if width_text is None else int(width_text)
    if width_text is not None and width >= WIDTH:
        raise TileError(f"{path[:120]!r}: a partial tile's width is 1 to 255, not {width}")
    digits = "".join(g[1:4] for g in groups.split("/") if g) + last
    tile = Tile(level, int(digits), width)
    if tile.path != path:  # the one way to write this tile
        raise TileError(f"{path[:120]!r} is not how the spec writes this tile: {tile.path}")
    return tile


def level_count(size: int, level: int) -> int:
    """How many hashes level `level`'s tiles hold for a tree of `size` leaves (the entries: level 0's)."""
    return size // WIDTH ** level


def tiles_of(size: int) -> Iterator[Tile]:
    """Every tile a tree of `size` leaves serves: the entry bundles, then each level's hash tiles, full ones first."""
    for level in (None, *range(64)):
        count = level_count(size, level or 0)
        if level is not None and count == 0:
            return
        for index in range(count // WIDTH):
            yield Tile(level, index)
        if count % WIDTH:
            yield Tile(level, count // WIDTH, count % WIDTH)


def covers(tile: Tile, size: int) -> bool:
    """Whether a tree of `size` leaves holds every hash (leaf) of `tile`: whether it may be served for that tree."""
    return (tile.first + tile.width) * WIDTH ** (tile.level or 0) <= size


def hash_tile(tile: Tile, read: merkle.Reader) -> bytes:
    """A hash tile's bytes, from the tree's stored hashes (service.evidence.merkle's order)."""
    level = tile.level * LEVEL_BITS
    return b"".join(read([merkle.stored_index(level, tile.first + i) for i in range(tile.width)]))


def entry_bundle(leaves: Sequence[bytes], first: int = 0) -> bytes:
    """Leaves as an entry bundle (2-byte big-endian length, bytes); TileError for a leaf the format cannot carry."""
    out = bytearray()
    for n, leaf in enumerate(leaves):
        if len(leaf) > MAX_LEAF:
            raise TileError(f"leaf {first + n} is {len(leaf)} bytes: an entry bundle carries at most {MAX_LEAF}")
        out += struct.pack(">H", len(leaf)) + leaf
    return bytes(out)


def read_bundle(data: bytes, tile: Tile) -> list[bytes]:
    """The leaves of an entry bundle; TileError when it is cut short or holds another count than its width."""
    leaves, at = [], 0
    while at < len(data):
        if at + 2 > len(data):
            raise TileError(f"{tile}: cut inside the length of leaf {tile.first + len(leaves)}", tile)
        (length,) = struct.unpack_from(">H", data, at)
        if at + 2 + length > len(data):
            raise TileError(f"{tile}: leaf {tile.first + len(leaves)} says {length} bytes and the bundle ends first",
                            tile)
        leaves.append(data[at + 2:at + 2 + length])
        at += 2 + length
    if len(leaves) != tile.width:
        raise TileError(f"{tile}: holds {len(leaves)} leaves, its path says {tile.width}", tile)
    return leaves


def read_hashes(data: bytes, tile: Tile) -> list[bytes]:
    """The hashes of a hash tile; TileError when its length is not its width's 32 bytes each."""
    if len(data) != tile.width * merkle.HASH_SIZE:
        raise TileError(f"{tile}: {len(data)} bytes, its path says {tile.width} hashes "
                        f"({tile.width * merkle.HASH_SIZE})", tile)
    return [data[i:i + merkle.HASH_SIZE] for i in range(0, len(data), merkle.HASH_SIZE)]


def _fold(hashes: Sequence[bytes]) -> bytes:
    """The root of a complete subtree from its 2^k bottom hashes."""
    row = list(hashes)
    while len(row) > 1:
        row = [merkle.node_hash(row[i], row[i + 1]) for i in range(0, len(row), 2)]
    return row[0]


class TileSet:
    """A tree's hash tiles read (level, index) -> hashes: any root of a tree no larger than theirs folds from them."""

    def __init__(self, hashes: dict[tuple[int, int], list[bytes]]):
        self.hashes = hashes

    def subtree(self, level: int, index: int) -> bytes:
        """The hash of the complete subtree (level, index) of the binary tree, folded from the lowest tile holding it;
        TileError when no tile does."""
        tile_level, rest = divmod(level, LEVEL_BITS)
        span = 1 << rest
        start = index * span
        row = self.hashes.get((tile_level, start // WIDTH), [])
        if start % WIDTH + span > len(row):
            raise TileError(f"no tile holds the subtree of 2^{level} leaves from leaf {index << level}")
        return _fold(row[start % WIDTH:start % WIDTH + span])

    def root(self, size: int) -> bytes:
        """The RFC 6962 root of the tree of the first `size` leaves."""
        parts = [self.subtree(level, index) for level, index in merkle.complete_subtrees(0, size)]
        if not parts:
            return merkle.tree_hash(0, lambda _: [])
        got = parts[-1]
        for left in reversed(parts[:-1]):
            got = merkle.node_hash(left, got)
        return got


Get = Callable[[str], "bytes | None"]


def _read(get: Get, tile: Tile, size: int) -> bytes:
    data = get(tile.path)
    if data is None:
        raise TileError(f"{tile}: missing (a tree of {size} leaves serves it)", tile)
    return data


def check_hash_tiles(get: Get, size: int, root: bytes) -> tuple[TileSet, dict[str, bytes]]:
    """Check the hash tiles of a tree of `size` leaves against its checkpoint's `root`, reading each with `get(path)`
    (None: missing); returns them, folded and by path. Raises TileError naming the file that does not hold: a full
    tile that does not hash to its place in the tile above, top tiles that do not make the root, a file missing or of
    another length than its width."""
    files: dict[str, bytes] = {}
    hashes: dict[tuple[int, int], list[bytes]] = {}
    for tile in tiles_of(size):
        if tile.level is not None:
            files[tile.path] = _read(get, tile, size)
            hashes[tile.level, tile.index] = read_hashes(files[tile.path], tile)
    for (level, index), row in hashes.items():  # each full tile hashes to its place in the tile above
        if len(row) == WIDTH:
            above = hashes[level + 1, index // WIDTH]
            if _fold(row) != above[index % WIDTH]:
                raise TileError(f"{Tile(level, index)}: its hashes do not make hash {index % WIDTH} of "
                                f"{Tile(level + 1, index // WIDTH, len(above))}: one of the two was altered")
    tree = TileSet(hashes)
    if tree.root(size) != root:
        raise TileError(f"the tiles make another root than the checkpoint's for its {size} leaves: a hash tile was "
                        "altered, or the checkpoint is of another tree")
    return tree, files


def check_entries(get: Get, size: int, tree: TileSet, each: Callable[[str, bytes], None] | None = None) -> int:
    """Check every entry bundle of a tree of `size` leaves against its checked hash tiles, one bundle at a time
    (`each(path, data)` is called with each once it holds: a mirror writes it then, and keeps none in memory);
    returns how many. TileError names the bundle and the leaf that does not hash to its place."""
    count = 0
    for tile in tiles_of(size):
        if tile.level is not None:
            continue
        data = _read(get, tile, size)
        row = tree.hashes[0, tile.index]
        for n, leaf in enumerate(read_bundle(data, tile)):
            if merkle.leaf_hash(leaf) != row[n]:
                raise TileError(f"{tile}: leaf {tile.first + n} does not hash to its place in "
                                f"{Tile(0, tile.index, tile.width)}: the entry was altered", tile)
        if each is not None:
            each(tile.path, data)
        count += 1
    return count


def check_tiles(get: Get, size: int, root: bytes) -> tuple[dict[str, bytes], TileSet]:
    """Every tile of a tree of `size` leaves checked against its checkpoint's `root` (check_hash_tiles, then
    check_entries), returned by path with the hash tiles folded (for a tree small enough to hold in memory)."""
    tree, files = check_hash_tiles(get, size, root)
    check_entries(get, size, tree, files.__setitem__)
    return files, tree
