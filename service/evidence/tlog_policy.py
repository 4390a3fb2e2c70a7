"""C2SP tlog-policy (https://c2sp.org/tlog-policy): which logs a reader accepts, which witnesses it knows and the
quorum of them whose cosignatures make a checkpoint valid.

    log <vkey> [<url>]                       a log (Ed25519 key, algorithm 0x01; its key name is its origin)
    witness <name> <vkey> [<url>]            a witness (cosignature key, algorithm 0x04), named for the lines below
    group <name> all|any|<k> <name>...       at least k of its members (witnesses or groups defined above) witnessed
    quorum <name>|none                       exactly one: the witness or group that must have witnessed

Items are separated by spaces and tabs; empty lines and lines starting with '#' are skipped; a name may be used only
after the line that defines it (so no group can be circular), and once per group. The only control characters
allowed are tab and newline. Every refusal (PolicyError) names the line and what is wrong: a policy file arrives
from anyone.

This is also how `--witness VKEY ... --quorum K` is read (`from_witnesses` writes that as a policy and reads it
back): one mechanism decides every quorum (service.evidence.witness_quorum, proof_check, log_audit).

Over 300 lines because the format and its decision are one room: a line is read into the policy the decision walks,
and each of the spec's rules (names before use, no duplicate keys, thresholds, the one quorum) is a refusal of its
own, worded for whoever wrote the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .signed_notes import (
    COSIGNATURE,
    ED25519,
    Note,
    NoteError,
    Verifier,
    open_note,
    split,
)
from .tree_heads import TreeHead

NONE = "none"
MAX_BYTES = 1 << 20
MAX_ITEMS = 1000  # logs, witnesses and groups each (the spec asks for at least 32)
ALLOWED = re.compile(rb"[^\x09\x0a\x20-\x7e\x80-\xff]")
SPACE = re.compile(r"[ \t]+")


class PolicyError(ValueError):
    """A policy that cannot be read: names the line and what is wrong."""


class QuorumNotMet(NoteError):
    """A checkpoint whose cosignatures do not satisfy the policy's quorum (names who is missing)."""


@dataclass(frozen=True)
class Group:
    name: str
    threshold: int
    members: tuple[str, ...]
    label: str = ""  # how a shortfall names it ("the named witnesses" for --witness/--quorum)


@dataclass
class Policy:
    logs: list[tuple[Verifier, str | None]] = field(default_factory=list)
    witnesses: dict[str, tuple[Verifier, str | None]] = field(default_factory=dict)
    groups: dict[str, Group] = field(default_factory=dict)
    quorum: str = NONE

    @property
    def witness_verifiers(self) -> list[Verifier]:
        return [v for v, _ in self.witnesses.values()]

    @property
    def log_verifiers(self) -> list[Verifier]:
        return [v for v, _ in self.logs]

    @property
    def text(self) -> str:
        """The policy in the file format (comments and URLs aside, what `parse` reads back to the same policy)."""
        lines = [f"log {v.text}" + (f" {url}" if url else "") for v, url in self.logs]
        lines += [f"witness {n} {v.text}" + (f" {url}" if url else "") for n, (v, url) in self.witnesses.items()]
        lines += [f"group {g.name} {g.threshold} {' '.join(g.members)}" for g in self.groups.values()]
        return "".join(line + "\n" for line in [*lines, f"quorum {self.quorum}"])

    def log_for(self, origin: str) -> Verifier | None:
        """The listed log whose key name is `origin` (a log's key name is its origin), or None."""
        return next((v for v, _ in self.logs if v.name == origin), None)

    def lists_log(self, key: Verifier) -> bool:
        return any(v.public == key.public and v.name == key.name for v, _ in self.logs)

    def witnessed(self, note: Note) -> dict[str, bool]:
        """Whether each witness and group (by name, in definition order) witnessed the opened note."""
        signed = {(s.name, s.id) for s in note.verified}
        done = {name: (v.name, v.id) in signed for name, (v, _) in self.witnesses.items()}
        for group in self.groups.values():  # members are defined before their group: one pass suffices
            done[group.name] = sum(done[m] for m in group.members) >= group.threshold
        return done

    def shortfall(self, note: Note) -> str | None:
        """Why the note's cosignatures do not satisfy the quorum (the groups short, who is missing), or None."""
        if self.quorum == NONE:
            return None
        done = self.witnessed(note)
        return None if done[self.quorum] else self._why(self.quorum, done, 0)

    def _why(self, name: str, done: dict[str, bool], depth: int) -> str:
        if name in self.witnesses:
            v = self.witnesses[name][0]
            return f"witness {name} ({v.name}+{v.id:08x}) did not cosign"
        group = self.groups[name]
        yes = [m for m in group.members if done[m]]
        missing = [m for m in group.members if not done[m]]
        label = group.label or f"the {len(group.members)} members of group {name}"
        why = (f"{len(yes)} of {label} cosigned ({', '.join(yes) or 'none'}), {group.threshold} "
               f"{'is' if group.threshold == 1 else 'are'} needed: missing {', '.join(missing)}")
        short = [m for m in missing if m in self.groups]
        if short and depth < 3:
            why += "".join(f"; {self._why(m, done, depth + 1)}" for m in short)
        return why

    def cosigned(self, note: Note) -> list[str]:
        """The names of the policy's witnesses whose cosignature on the opened note verified."""
        done = self.witnessed(note)
        return [name for name in self.witnesses if done[name]]

    def open(self, note: str | bytes, log_key: Verifier | None = None) -> tuple[Note, Verifier]:
        """The note opened with the log's key (`log_key`, else the listed log named by its origin) and the witnesses'
        keys; raises NoteError when a known signature fails or no accepted log signed it (the quorum is not looked
        at: see `shortfall`)."""
        text, _ = split(note)
        origin = TreeHead.parse(text).origin
        if log_key is not None and self.logs and not self.lists_log(log_key):
            raise NoteError(f"the log's key {log_key.name}+{log_key.id:08x} is none of the policy's logs "
                            f"({', '.join(v.name for v in self.log_verifiers)})")
        if log_key is None:
            log_key = self.log_for(origin)
            if log_key is None:
                listed = ", ".join(v.name for v in self.log_verifiers) or "none"
                raise NoteError(f"the checkpoint's origin {origin[:80]!r} is none of the policy's logs ({listed})")
        opened = open_note(note, [log_key, *self.witness_verifiers])
        if origin != log_key.name or not any((s.name, s.id) == (log_key.name, log_key.id) for s in opened.verified):
            raise NoteError(f"the note is not signed by the log's key {log_key.name}+{log_key.id:08x} under its origin "
                            f"(its origin line: {origin[:80]!r})")
        return opened, log_key

    def check(self, note: str | bytes, log_key: Verifier | None = None) -> list[str]:
        """The witnesses that cosigned `note`, when an accepted log signed it and the quorum is met; raises NoteError
        (QuorumNotMet for a quorum short, naming who is missing)."""
        opened, _ = self.open(note, log_key)
        problem = self.shortfall(opened)
        if problem:
            raise QuorumNotMet(problem)
        return self.cosigned(opened)


def _show(raw: str, limit: int = 80) -> str:
    return repr(raw.encode("utf-8", "surrogateescape").decode("utf-8", "replace")[:limit])


def parse(data: bytes | str, where: str = "the policy") -> Policy:
    """A policy read from its text; raises PolicyError naming the line (and `where`) and what is wrong."""
    raw = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
    if len(raw) > MAX_BYTES:
        raise PolicyError(f"{where}: {len(raw)} bytes, more than {MAX_BYTES}")
    policy, defined, quorum_line = Policy(), {}, None
    defined_later = _definitions(raw)
    for number, line in enumerate(raw.split(b"\n"), 1):
        def fail(what: str, number: int = number) -> PolicyError:
            return PolicyError(f"{where}, line {number}: {what}")

        bad = ALLOWED.search(line)
        if bad:
            extra = " (a carriage return: the file has CRLF line ends; use newlines only)" if bad.group() == b"\r" else ""
            raise fail(f"byte 0x{bad.group()[0]:02x} is not allowed (of the control characters only tab and newline "
                       f"are){extra}")
        text = line.decode("utf-8", "surrogateescape").strip(" \t")
        if not text or text.startswith("#"):
            continue
        keyword, *items = SPACE.split(text)
        if keyword == "log":
            if len(items) not in (1, 2):
                raise fail("expected 'log <vkey> [<url>]'")
            key = _key(items[0], ED25519, fail, "log")
            twin = next((n for n, (v, _) in enumerate(policy.logs) if v.public == key.public), None)
            if twin is not None:
                raise fail(f"log {key.name} has the same public key as the log {policy.logs[twin][0].name} listed "
                           "above (duplicate logs are not allowed)")
            policy.logs.append((key, items[1] if len(items) == 2 else None))
        elif keyword == "witness":
            if len(items) not in (2, 3):
                raise fail("expected 'witness <name> <vkey> [<url>]'")
            name = _new_name(items[0], defined, fail)
            key = _key(items[1], COSIGNATURE, fail, f"witness {_show(name)}")
            twin = next((n for n, (v, _) in policy.witnesses.items() if v.public == key.public), None)
            if twin is not None:
                raise fail(f"witness {_show(name)} has the same public key as witness {_show(twin)} (duplicate "
                           "witnesses are not allowed)")
            policy.witnesses[name] = (key, items[2] if len(items) == 3 else None)
            defined[name] = number
        elif keyword == "group":
            if len(items) < 3:
                raise fail("expected 'group <name> all|any|<k> <name>...' (at least one member)")
            name = _new_name(items[0], defined, fail)
            members = items[2:]
            for member in members:
                _known(member, name, defined, defined_later, number, fail)
            twice = next((m for m in members if members.count(m) > 1), None)
            if twice is not None:
                raise fail(f"group {_show(name)} lists {_show(twice)} more than once (a name counts once per group)")
            policy.groups[name] = Group(name, _threshold(items[1], len(members), name, fail), tuple(members))
            defined[name] = number
        elif keyword == "quorum":
            if len(items) != 1:
                raise fail("expected 'quorum <name>' or 'quorum none'")
            if quorum_line is not None:
                raise fail(f"a second quorum line (the first is line {quorum_line}): a policy has exactly one")
            if items[0] != NONE:
                _known(items[0], None, defined, defined_later, number, fail)
            policy.quorum, quorum_line = items[0], number
        else:
            raise fail(f"unknown keyword {_show(keyword, 30)} (expected log, witness, group or quorum)")
        if max(len(policy.logs), len(policy.witnesses), len(policy.groups)) > MAX_ITEMS:
            raise fail(f"more than {MAX_ITEMS} logs, witnesses or groups")
    if quorum_line is None:
        raise PolicyError(f"{where}: no quorum line (a policy has exactly one: 'quorum <name>' or 'quorum none')")
    return policy


def _definitions(raw: bytes) -> dict[str, int]:
    """Where each name is defined (its first witness or group line), to tell a forward reference from an unknown name."""
    found: dict[str, int] = {}
    for number, line in enumerate(raw.split(b"\n"), 1):
        items = SPACE.split(line.decode("utf-8", "surrogateescape").strip(" \t"))
        if len(items) > 1 and items[0] in ("witness", "group"):
            found.setdefault(items[1], number)
    return found


def _new_name(name: str, defined: dict[str, int], fail) -> str:
    if name == NONE:
        raise fail("'none' is predefined (the empty quorum): it cannot name a witness or a group")
    if name in defined:
        raise fail(f"{_show(name)} is already defined on line {defined[name]} (witnesses and groups share one "
                   "namespace)")
    return name


def _known(name: str, group: str | None, defined: dict[str, int], later: dict[str, int], number: int, fail) -> None:
    """A member (or the quorum) must name a witness or group defined on an earlier line."""
    what = f"group {_show(group)}" if group is not None else "the quorum"
    if name == NONE:
        raise fail(f"{what} lists 'none', which cannot be a group member")
    if name in defined:
        return
    if name == group:
        raise fail(f"{what} lists itself: a circular group (a group may name only witnesses and groups defined on the "
                   "lines before it)")
    if name in later:
        circular = " (a circular definition)" if group is not None else ""
        raise fail(f"{what} names {_show(name)}, which is defined only on line {later[name]}, after this one"
                   f"{circular}: a name can be used only after the line that defines it")
    raise fail(f"{what} names {_show(name)}, an unknown witness or group (no witness or group line defines it)")


def _threshold(text: str, members: int, group: str, fail) -> int:
    if text == "any":
        return 1
    if text == "all":
        return members
    if not re.fullmatch(r"[0-9]{1,9}", text):
        raise fail(f"group {_show(group)}: threshold {_show(text, 20)} is not 'all', 'any' or a decimal number")
    k = int(text)
    if not 1 <= k <= members:
        raise fail(f"group {_show(group)}: threshold {k} must be between 1 and its {members} member(s)")
    return k


def _key(text: str, algorithm: int, fail, what: str) -> Verifier:
    try:
        return Verifier.parse(text, algorithm)
    except NoteError as e:
        raise fail(f"{what}: {e}") from None


def read(path: str) -> Policy:
    """The policy in the file at `path`; raises PolicyError (cannot be read, or what `parse` refuses)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise PolicyError(f"policy {path}: cannot be read ({e.strerror or e})") from None
    return parse(data, f"policy {Path(path).name}")


def from_witnesses(witnesses: list[Verifier], quorum: int | None = None, logs: list[Verifier] = ()) -> Policy:
    """The policy `--witness VKEY ... --quorum K` stands for: K (default all) of the named witnesses, each counted once
    by name (two keys under one name are one witness, either key counting); written as a policy file and read back."""
    if any(w.algorithm != COSIGNATURE for w in witnesses):
        bad = next(w for w in witnesses if w.algorithm != COSIGNATURE)
        raise PolicyError(f"witness {bad.name}: its key is not a cosignature key (algorithm 0x04, C2SP tlog-cosignature)")
    names = list(dict.fromkeys(w.name for w in witnesses))
    k = len(names) if quorum is None else quorum
    if not 0 <= k <= len(names):
        raise PolicyError(f"a quorum of {k} cannot be met by {len(names)} named witness(es)")
    lines = [f"log {v.text}" for v in dict.fromkeys(logs)]
    members = []
    for name in names:
        keys = list(dict.fromkeys(w for w in witnesses if w.name == name))
        if len(keys) == 1:
            lines.append(f"witness {name} {keys[0].text}")
        else:
            lines += [f"witness {name}#{n} {key.text}" for n, key in enumerate(keys, 1)]
            lines.append(f"group {name} any {' '.join(f'{name}#{n}' for n in range(1, len(keys) + 1))}")
        members.append(name)
    group = "named-witnesses"
    while group in names:
        group += "-"
    if k:
        lines.append(f"group {group} {k} {' '.join(members)}")
    lines.append(f"quorum {group if k else NONE}")
    policy = parse("".join(line + "\n" for line in lines), "the --witness keys")
    if k:
        policy.groups[group] = Group(group, k, tuple(members), "the named witnesses")
    return policy
