"""The transparency log held against its stored lines (`arbiter verify --all`): every published checkpoint's
signature, its root against the root the stored lines give for its size (a rewritten leaf is named by the range of
lines between the last checkpoint that still agrees and the first that does not, and by the line's own check when it
fails it), consistency between successive published checkpoints (append-only), checkpoints an auditor kept
(`--checkpoint FILE`: a fork shown to them is named), and a witness policy's quorum (C2SP tlog-policy, or the
`--witness`/`--quorum` it stands for: service.evidence.tlog_policy) on the latest checkpoint.

Pure but for reading: the stored lines are read once, the tree built afresh (not the serving process's copy)."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import merkle
from .signed_notes import ED25519, NoteError, Verifier, open_note, split
from .tlog_policy import Policy
from .tree_heads import TreeHead


@dataclass
class Audit:
    ok: bool | None
    leaves: int
    published: int
    latest: int | None
    findings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"ok": self.ok, "leaves": self.leaves, "published": self.published, "latest": self.latest,
                "findings": self.findings, "notes": self.notes}


def _open(note: str, key_raw: bytes | None, origin: str | None, witnesses: list[Verifier], what: str):
    """(TreeHead, Note) of a checkpoint note, or a finding."""
    try:
        text, _ = split(note)
        head = TreeHead.parse(text)
    except NoteError as e:
        return None, f"{what} cannot be read: {e}"
    if key_raw is None:
        return None, f"{what} cannot be checked: no signing key (give --public-key or --key-file)"
    log_key = Verifier(origin or head.origin, ED25519, key_raw)
    try:
        opened = open_note(note, [log_key, *witnesses])
    except NoteError as e:
        return None, f"{what} (tree size {head.size}) is not signed by this log's key {log_key.name}: {e}"
    if not opened.signed_by(log_key.name):
        return None, f"{what} (tree size {head.size}) is not signed by this log's key {log_key.name}"
    return (head, opened), None


def signed_tree(note: str, key_raw: bytes, origin: str | None) -> TreeHead | None:
    """The tree head of a checkpoint note signed by the log's key, else None."""
    got, _ = _open(note, key_raw, origin, [], "")
    return got[0] if got else None


def leaves(lines: list[bytes], report=None) -> tuple[merkle.MemoryHashes, int | None]:
    """The tree of the log's lines, in seq order, and the first line that is gone with no hash known (or None).

    `report`: the lines' own check (service.evidence.log_check). A line deleted or altered that the line after it
    names takes the leaf hash that line gives (so the lines after it are held against the published tree as they
    were signed); one deleted that nothing names leaves a hole (every tree from it on cannot be recomputed); one altered
    that nothing names is taken as it stands. Without a report, or one that stopped, the lines as they stand."""
    hashes = merkle.MemoryHashes()
    gone = {} if report is None or report.stopped else \
        {seq: g for g in report.gone if g["why"] != "cut" for seq in range(g["first"], g["last"] + 1)}
    if not gone:
        for raw in lines:
            hashes.append_leaf(raw)
        return hashes, None
    physical, hole = iter(lines), None
    for seq in range(1, report.lines + 1):
        g = gone.get(seq)
        raw = next(physical, None) if g is None or g["why"] == "altered" else None
        named = _hash(g["leaf"]) if g is not None and seq == g["last"] else None
        if named is not None:
            hashes.append_leaf_hash(named)
        elif raw is not None:
            hashes.append_leaf(raw)
        else:
            hashes.append_leaf_hash(bytes(merkle.HASH_SIZE))
            hole = hole or seq
    for raw in physical:  # lines appended since the report was made
        hashes.append_leaf(raw)
    return hashes, hole


def _hash(text) -> bytes | None:
    try:
        raw = bytes.fromhex(text)
    except (TypeError, ValueError):
        return None
    return raw if len(raw) == merkle.HASH_SIZE else None


def audit(lines: list[bytes], heads: list, key_raw: bytes | None, origin: str | None = None,
          kept: list[tuple[str, str]] = (), policy: Policy | None = None,
          broken_at: int | None = None, problem: str | None = None, report=None) -> Audit:
    """`lines`: the stored checkpoint lines; `heads`: the published checkpoints (service.evidence.published_heads),
    oldest first; `kept`: (where, note) of checkpoints an auditor kept; `policy`: the witnesses (and logs) the latest
    checkpoint must satisfy; `broken_at`/`problem`: the lines' own check, `report` all of it (the lines gone, and what
    the lines after them name: `leaves`)."""
    witnesses = policy.witness_verifiers if policy is not None else []
    hashes, hole = leaves(lines, report)
    n = hashes.leaves
    out = Audit(True, n, len(heads), heads[-1].size if heads else None)
    opened: list[tuple[int, TreeHead, str]] = []
    agreed = 0
    named = [g for g in (report.gone if report is not None and not report.stopped else []) if g["named_by"]]
    rejoined: list[str] = []

    def against_lines(head: TreeHead, what: str) -> str | None:
        nonlocal agreed
        if hole is not None and hole <= head.size <= n:
            return f"{what} (tree size {head.size}) cannot be recomputed from the stored lines: line {hole} is gone " \
                   "and no line after it names its hash (the lines after it are held by their own signatures only)"
        if head.size > n:
            return f"{what} signed a tree of {head.size} leaves, but the log holds {n} lines: lines {n + 1} to " \
                   f"{head.size} are gone (the log was cut or rolled back)"
        if merkle.tree_hash(head.size, hashes.read) != head.root:
            where = f"lines {agreed + 1} to {head.size}" if agreed + 1 < head.size else f"line {head.size}"
            line = f"; line {broken_at} fails its own check: {problem}" if broken_at and agreed < broken_at <= head.size \
                else ""
            return f"{what} (tree size {head.size}) has another root than the stored lines give: a leaf among {where} " \
                   f"was rewritten{line}"
        if not rejoined and any(g["last"] < head.size for g in named):
            rejoined.append(f"{what} (tree size {head.size}) holds the stored lines, with the hash of each line that "
                            "is gone as the line after it names it: every line after a gone one is as published")
        return None

    for number, head in enumerate(heads, start=1):
        what = f"published checkpoint {number} ({head.published_at})"
        got, finding = _open(head.note, key_raw, origin, list(witnesses), what)
        if finding:
            out.findings.append(finding)
            continue
        tree, _ = got
        if opened and tree.size <= opened[-1][1].size:
            out.findings.append(f"{what} has tree size {tree.size}, not more than the one before ({opened[-1][1].size})")
        finding = against_lines(tree, what)
        if finding:
            out.findings.append(finding)
        else:
            agreed = max(agreed, tree.size)
        if opened:
            prev = opened[-1][1]
            if prev.size <= tree.size <= n and (hole is None or tree.size < hole):
                try:
                    merkle.check_consistency(prev.size, tree.size, prev.root, tree.root,
                                             merkle.consistency_proof(prev.size, tree.size, hashes.read))
                except merkle.ProofError as e:
                    out.findings.append(f"published checkpoints {opened[-1][0]} (size {prev.size}) and {number} (size "
                                        f"{tree.size}) are not consistent: {e}")
        opened.append((number, tree, head.note))
    for where, note in kept:
        got, finding = _open(note, key_raw, origin, list(witnesses), f"the checkpoint kept in {where}")
        if finding:
            out.findings.append(finding)
            continue
        tree, _ = got
        if hole is not None and hole <= tree.size <= n:
            out.findings.append(f"the checkpoint kept in {where} (tree size {tree.size}) cannot be recomputed from the "
                                f"stored lines: line {hole} is gone and no line after it names its hash")
        elif tree.size <= n and merkle.tree_hash(tree.size, hashes.read) != tree.root:
            out.findings.append(f"fork: the checkpoint kept in {where} (tree size {tree.size}) has another root than "
                                f"the first {tree.size} lines of the log now: the log shown then and the log now differ "
                                "(a fork or a rewrite)")
        elif tree.size > n:
            out.findings.append(f"the checkpoint kept in {where} signed {tree.size} leaves, the log holds {n}: lines "
                                f"{n + 1} to {tree.size} are gone")
        else:
            out.notes.append(f"the checkpoint kept in {where} (tree size {tree.size}) is a prefix of the log")
    if policy is not None and opened:
        out.findings += _policy_findings(policy, opened[-1][2], key_raw, origin)
    out.notes.extend(rejoined)
    if not heads and not kept:
        out.ok = None
        out.notes.append("no checkpoint was published yet")
    if out.findings:
        out.ok = False
    return out


def _policy_findings(policy: Policy, latest: str, key_raw: bytes | None, origin: str | None) -> list[str]:
    """What the latest published checkpoint lacks for the policy: a log it lists, the quorum of its witnesses."""
    if key_raw is None:
        return []
    text, _ = split(latest)
    log_key = Verifier(origin or TreeHead.parse(text).origin, ED25519, key_raw)
    try:
        opened, _ = policy.open(latest, log_key)
    except NoteError as e:
        return [f"the latest published checkpoint does not satisfy the policy: {e}"]
    problem = policy.shortfall(opened)
    if problem:
        return [f"the latest published checkpoint is short of its witness quorum: {problem}"]
    return []
