"""What the transparency log's routes and the duty loop ask of a store's evidence (docs/evidence.md, "The
transparency log"): the latest published checkpoint, the log's verifier key, inclusion and consistency proofs in the
tree of that checkpoint, that tree's tlog-tiles, publishing, and a receipt turned into a proof bundle.

Where the published checkpoints live follows the checkpoint log: the table `<schema>_evidence.tree_heads` beside the
table log, `<log file>.heads` beside a file log, memory for memory://.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any, Sequence
from uuid import UUID

from service.errors import BadInput, Conflict, NotFound

from . import promises, receipts, tiles
from .published_heads import FileHeads, MemoryHeads, Published, TableHeads
from .signed_notes import ED25519, Signer, Verifier
from .tiles import Tile
from .transparency import Collect, TransparencyLog, leaf_key, no_witnesses
from .witness_client import collect_cosignatures, parse_witnesses

BUNDLE = "arbiter.proof/1"
DEFAULT_PUBLISH_SECONDS = 5.0


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def default_origin(key_id: str) -> str:
    """The log's name when ARBITER_LOG_ORIGIN does not give one: names the deployment by its key."""
    return f"arbiter.invalid/{key_id}"


def publish_seconds() -> float:
    """How often the duty loop publishes a checkpoint (ARBITER_LOG_PUBLISH_SECONDS, default 5)."""
    text = os.environ.get("ARBITER_LOG_PUBLISH_SECONDS") or DEFAULT_PUBLISH_SECONDS
    try:
        seconds = float(text)
        if not 0 < seconds <= 86400:
            raise ValueError
    except ValueError:
        raise BadInput(f"ARBITER_LOG_PUBLISH_SECONDS {text!r}: must be a number of seconds above 0, at most 86400",
                       field="log_publish_seconds") from None
    return seconds


def heads_for(storage, tables) -> Any:
    """Where a checkpoint log's published heads are kept (the module's docstring)."""
    from .pg_tables import TableStorage

    if isinstance(storage, TableStorage):
        return TableHeads(tables)
    path = getattr(storage, "path", None)
    return FileHeads(Path(str(path) + ".heads")) if path is not None else MemoryHeads()


class LogService:
    """The transparency log of one store's evidence (service.evidence.facade.Evidence)."""

    def __init__(self, evidence, origin: str | None = None, witnesses: str | Sequence | None = None,
                 collect: Collect | None = None):
        """`witnesses`: the witnesses each new checkpoint is sent to, as `URL=VKEY,URL=VKEY` (ARBITER_WITNESSES when
        None; a malformed list raises WitnessConfigError naming the item) or as witness_client.Witness objects."""
        self.evidence = evidence
        self._origin = origin or os.environ.get("ARBITER_LOG_ORIGIN") or None
        if witnesses is None:
            witnesses = os.environ.get("ARBITER_WITNESSES", "")
        self.witnesses = parse_witnesses(witnesses) if isinstance(witnesses, str) else list(witnesses)
        self.collect = collect or (collect_cosignatures if self.witnesses else no_witnesses)
        self.tree = TransparencyLog(evidence.log.storage, heads_for(evidence.log.storage, evidence.tables), self.signer)

    @property
    def origin(self) -> str:
        return self._origin or default_origin(self.evidence.key.id)

    def signer(self) -> Signer:
        return self.evidence.key.note_signer(self.origin)

    def verifier(self) -> Verifier:
        """The log's verifier key (from the public key when no private key is at hand)."""
        key = self.evidence.verifying_key()
        if key is None:
            raise NotFound("this server has no signing key yet: it never signed a checkpoint")
        origin = self._origin or default_origin(key.id)
        return Verifier(origin, ED25519, key.raw)

    def key_text(self) -> str:
        return self.verifier().text + "\n"

    def publish(self) -> Published | None:
        """Publish the tree of every line so far, cosigned by the configured witnesses (skipped when published)."""
        return self.tree.publish(self.witnesses, self.collect)

    def latest(self) -> Published:
        """The latest published checkpoint; publishes one first when there is none yet."""
        head = self.tree.latest() or self.publish()
        if head is None:
            raise NotFound("the transparency log is empty: no checkpoint was written yet, so none was published")
        return head

    def checkpoint_text(self) -> str:
        return self.latest().note

    def inclusion(self, game: str, version: int) -> dict:
        """The audit path of the leaf of (game, version) in the tree of the latest published checkpoint."""
        size = self.latest().size
        self.tree.sync()
        index = self.tree.find(game, version)
        if index is None or index >= size:
            below, above = self.tree.nearest(game, version, size)
            near = [f"version {v}" for v in (below, above) if v is not None]
            why = "has no leaf" if index is None else f"has leaf {index}, not yet in the published tree of size {size}"
            raise NotFound(f"game {game} at version {version} {why}; "
                           + (f"its nearest published leaves: {' and '.join(near)}" if near else
                              "no leaf of this game is published yet"), field="version")
        return {"index": index, "tree_size": size, "leaf": b64(self.tree.leaf(index)),
                "proof": [b64(h) for h in self.tree.inclusion(index, size)]}

    def consistency(self, old: int, new: int) -> dict:
        size = self.latest().size
        if old > new:  # never answerable: a log only grows
            raise BadInput(f"new: must be at least old ({old}): no consistency proof goes from a tree of {old} leaves "
                           f"to a smaller one of {new}, a log only grows", field="new")
        if new > size:  # a tree that may come, not a malformed request: 404, as a leaf not yet published
            raise NotFound(f"new: no published checkpoint has tree size {new} (the latest has {size})", field="new")
        return {"old": old, "new": new, "proof": [b64(h) for h in self.tree.consistency(old, new)]}

    def tile(self, path: str) -> tuple[Tile, bytes]:
        """A tlog-tiles tile of the latest published tree (service.evidence.tiles), by its path under the log's prefix
        (`tile/0/x001/067.p/5`); NotFound names what is wrong with the path or that the published tree does not hold
        the tile yet, Conflict a log shorter than its own published checkpoint."""
        try:
            tile = tiles.parse_path(path)
        except tiles.TileError as e:
            raise NotFound(str(e), field="tile") from None
        size = self.latest().size
        if not tiles.covers(tile, size):
            raise NotFound(f"{tile}: the latest published checkpoint's tree has {size} leaves, which do not fill this "
                           "tile (a partial tile is served for the width the published tree gives it)", field="tile")
        span = tiles.WIDTH ** (tile.level or 0)  # leaves under each hash of the tile
        first, last = tile.first * span, (tile.first + tile.width) * span
        if self.tree.sync() < last:
            raise Conflict(f"{tile}: the log holds {self.tree.leaves} leaves, fewer than the {size} of its published "
                           "checkpoint: lines were cut from it (arbiter verify --all names them)", field="tile")
        if tile.level is not None:
            return tile, self.tree.hash_tile(tile)
        try:
            return tile, tiles.entry_bundle(self.tree.leaves(first, last), first)
        except tiles.TileError as e:
            raise Conflict(str(e), field="tile") from None

    def signed_size(self) -> tuple[int, str] | None:
        """(tree size, when published) of the newest published checkpoint signed by this log's key, or None: what the
        log's lines must reach (fewer lines: the log was cut, service.evidence.facade.Evidence.checked_log)."""
        from .log_audit import signed_tree
        from .published_heads import HeadsDamaged

        key = self.evidence.verifying_key()
        if key is None:
            return None
        try:
            latest = self.tree.heads.latest()
            heads = [latest] if latest is None or signed_tree(latest.note, key.raw, self._origin) else \
                self.tree.heads.all()  # the latest is not the log's: the newest that is
        except HeadsDamaged:  # the audit names it
            return None
        for head in reversed([h for h in heads if h is not None]):
            tree = signed_tree(head.note, key.raw, self._origin)
            if tree is not None:
                return tree.size, head.published_at
        return None

    def audit(self, kept: Sequence[tuple[str, str]] = (), policy=None) -> dict:
        """The published checkpoints held against the stored lines (service.evidence.log_audit), for verify --all;
        `policy` (service.evidence.tlog_policy.Policy): the witness quorum the latest checkpoint must meet."""
        from .log_audit import audit
        from .published_heads import HeadsDamaged

        key = self.evidence.verifying_key()
        report = self.evidence.log.report()
        try:
            heads = self.tree.heads.all()
        except HeadsDamaged as e:
            return {"ok": False, "leaves": report.lines, "published": None, "latest": None, "findings": [str(e)],
                    "notes": [], "where": str(self.tree.heads)}
        lines = self.evidence.log.storage.read().split(b"\n")[:-1]
        done = audit(lines, heads, key.raw if key is not None else None, self._origin, list(kept), policy,
                     report.broken_at, report.problem, report)
        return {**done.as_dict(), "where": str(self.tree.heads)}

    def proof(self, doc: Any) -> tuple[int, dict]:
        """A receipt turned into a proof bundle (200), or a leaf appended or waiting for the next checkpoint (202); a
        promise kept alone (a refusal's answer: an object with `promise` and no `format`) into the bundle of the first
        leaf that covers it (`promise_proof`)."""
        if isinstance(doc, dict) and "format" not in doc and "promise" in doc:
            return self.promise_proof(doc["promise"])
        receipt = receipts.parse(doc)
        key = self.evidence.verifying_key()
        problem = key.signature_problem(receipt) if key is not None else "this server has no signing key"
        if problem:
            raise receipts.ForgedReceipt(f"receipt refused: {problem}", field="signature")
        game, version = receipt["game"], receipt["version"]
        self.tree.sync()
        index = self.tree.find(game, version)
        if index is None:
            check = self.evidence.verify_receipt(receipt)
            if not check["ok"]:
                raise Conflict(f"the store no longer holds what the receipt says, so no leaf is added: {check['detail']}",
                               field="receipt")
            line = self.evidence.log.append(game, version, receipt["head"], "receipt")
            self.tree.sync()
            index = self.tree.find(game, version)
            return 202, self._pending(index if index is not None else line["seq"] - 1, "appended")
        leaf = self.tree.leaf(index)
        if leaf_key(leaf) != (game, version) or _field(leaf, "head") != receipt["head"]:
            raise Conflict(f"leaf {index} of the log signs game {game} at version {version} with another head than "
                           "the receipt's: the store or the log was rewritten", field="head")
        head = self.latest()
        if index >= head.size:
            return 202, self._pending(index, "waiting")
        return 200, {"format": BUNDLE, "receipt": receipt, "leaf": b64(leaf), "index": index, "tree_size": head.size,
                     "proof": [b64(h) for h in self.tree.inclusion(index, head.size)], "checkpoint": head.note}

    def promise_proof(self, note: Any) -> tuple[int, dict]:
        """The bundle of the first leaf covering a promise (service.evidence.promises) in the latest published
        checkpoint (200); 202 while its time has not come; a promise past its time that no published checkpoint
        covers is the log's broken word: 409 naming the game, the version and the time."""
        promise = promises.read(note, self.verifier())
        head = self.tree.latest()
        lines = self.evidence.log.storage.read().split(b"\n")[:-1]
        held = promises.held(promise, lines, self.tree.heads.all())
        if held["status"] == "broken":
            raise Conflict(held["detail"], field="promise")
        if held["status"] == "pending":
            index = held["line"] - 1 if held["line"] else len(lines)
            return 202, {"status": "pending", "index": index, "tree_size": head.size if head else 0,
                         "retry_after": publish_seconds(), "detail": held["detail"]}
        head = self.latest()
        index = held["line"] - 1
        self.tree.sync()
        return 200, {"format": BUNDLE, "promise": promise.note, "leaf": b64(self.tree.leaf(index)), "index": index,
                     "tree_size": head.size, "proof": [b64(h) for h in self.tree.inclusion(index, head.size)],
                     "checkpoint": head.note}

    def _pending(self, index: int, what: str) -> dict:
        latest = self.tree.latest()
        size = latest.size if latest else 0
        said = "a leaf was appended for the receipt" if what == "appended" else "the receipt's leaf is in the log"
        return {"status": "pending", "index": index, "tree_size": size, "retry_after": publish_seconds(),
                "detail": f"{said} (leaf {index}); the latest published checkpoint has {size} leaves: ask again "
                          "once the next one is out"}


def _field(leaf: bytes, name: str):
    from domain import json_limits

    try:
        return json_limits.read_document(leaf).get(name)
    except (ValueError, AttributeError):
        return None


def game_id(text: str) -> str:
    """A game id from a query, or BadInput."""
    try:
        return str(UUID(text))
    except ValueError:
        raise BadInput(f"game: {text[:60]!r} is not a game id", field="game") from None
