"""Asking witnesses to cosign a checkpoint (C2SP tlog-witness, the log's side of `POST <url>/add-checkpoint`).

ARBITER_WITNESSES names them: `URL=VKEY,URL=VKEY` (a URL holds neither ',' nor '='; VKEY is the witness's cosigner
verifier key, algorithm 0x04). For each witness, the size it last cosigned is remembered in this process (0 at
first): the request says `old` = that size with the consistency proof from it; a 409 tells the witness's size, and
the request is made once more from there. A returned cosignature is kept only if it verifies, under the witness's
key, on this checkpoint's text. A witness that is down, slow (TIMEOUT) or answers wrongly is logged and skipped:
publishing never waits on, nor fails for, a witness.
"""

from __future__ import annotations

import logging
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

from service.witness.protocol import MAX_BODY, SIZE, request_body

from .merkle import ProofError
from .signed_notes import COSIGNATURE, NoteError, Signature, Verifier, split
from .tree_heads import TreeHead

log = logging.getLogger("arbiter.evidence.witness")
TIMEOUT = 5.0

_sizes: dict[tuple[str, str, str], int] = {}  # (url, witness key, origin) -> the size it last cosigned
_sizes_lock = threading.Lock()


@dataclass(frozen=True)
class Witness:
    """A witness: where it listens (POST url + "/add-checkpoint") and its cosigner verifier key."""

    url: str
    verifier: Verifier


class WitnessConfigError(ValueError):
    """An ARBITER_WITNESSES value that cannot be read (names the item and what is wrong)."""


def parse_witnesses(text: str) -> list[Witness]:
    """The witnesses of `URL=VKEY,URL=VKEY` (empty: none); raises WitnessConfigError naming the item that is wrong."""
    out = []
    for number, item in enumerate((i.strip() for i in text.split(",")), 1):
        if not item:
            if text.strip():
                raise WitnessConfigError(f"witness {number} of {text.strip()[:80]!r} is empty (a stray ',')")
            continue
        url, sep, vkey = item.partition("=")
        url = url.strip().rstrip("/")
        if not sep or not vkey.strip():
            raise WitnessConfigError(f"witness {number} {item[:80]!r}: expected URL=VKEY")
        if not url.startswith(("http://", "https://")) or len(url.split("://", 1)[1]) == 0:
            raise WitnessConfigError(f"witness {number}: {url[:80]!r} is not an http:// or https:// URL")
        try:
            verifier = Verifier.parse(vkey, COSIGNATURE)
        except NoteError as e:
            raise WitnessConfigError(f"witness {number} ({url}): {e}") from None
        out.append(Witness(url, verifier))
    return out


def collect_cosignatures(witnesses: list[Witness], note: str, size: int, prove: Callable[[int, int], list[bytes]],
                         *, timeout: float = TIMEOUT) -> list[Signature]:
    """The verified cosignatures of checkpoint `note` (of tree `size`) from the witnesses that give one, in the
    witnesses' order; `prove(old, new)` is the log's consistency proof. Never raises for a witness's sake."""
    text, _ = split(note)
    origin = TreeHead.parse(text).origin
    if not witnesses:
        return []
    with ThreadPoolExecutor(max_workers=min(len(witnesses), 16)) as pool:
        got = list(pool.map(lambda w: _ask(w, note, text, origin, size, prove, timeout), witnesses))
    return [s for s in got if s is not None]


def _ask(witness: Witness, note: str, text: bytes, origin: str, size: int, prove, timeout: float) -> Signature | None:
    key = (witness.url, witness.verifier.text, origin)
    with _sizes_lock:
        old = _sizes.get(key, 0)
    try:
        for attempt in (1, 2):
            if old > size:
                raise _Skip(f"it has cosigned a tree of {old} leaves, bigger than this checkpoint's {size}")
            status, content_type, body = _post(witness.url, request_body(old, prove(old, size), note), timeout)
            if status == 409 and content_type.split(";")[0].strip() == SIZE:
                theirs = _size(body)
                _remember(key, theirs)
                if theirs == old or attempt == 2:
                    raise _Skip(f"it refuses this checkpoint at its recorded size {theirs}: it cosigned another tree "
                                "of that size (a split view, or a rewritten log)")
                old = theirs
                continue
            if status != 200:
                raise _Skip(f"it answered {status}: {body[:300].decode('utf-8', 'replace').strip()}")
            signature = _cosignature(witness.verifier, text, body)
            _remember(key, size)
            return signature
    except (_Skip, ProofError, NoteError) as e:
        log.warning("arbiter: witness %s (%s) gave no cosignature of %s at size %d: %s", witness.verifier.name,
                    witness.url, origin, size, e)
    except (OSError, urllib.error.URLError, ValueError) as e:
        log.warning("arbiter: witness %s (%s) could not be asked to cosign %s at size %d: %s", witness.verifier.name,
                    witness.url, origin, size, getattr(e, "reason", None) or e)
    except Exception:  # the log's prove() or anything else: publishing goes on without this witness
        log.exception("arbiter: asking witness %s (%s) to cosign %s at size %d failed", witness.verifier.name,
                      witness.url, origin, size)
    return None


class _Skip(Exception):
    """This witness gives no cosignature this time (why)."""


def _remember(key: tuple[str, str, str], size: int) -> None:
    with _sizes_lock:
        _sizes[key] = size


def _post(url: str, body: bytes, timeout: float) -> tuple[int, str, bytes]:
    request = urllib.request.Request(url + "/add-checkpoint", data=body, method="POST",
                                     headers={"Content-Type": "text/plain; charset=utf-8"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read(MAX_BODY)
    except urllib.error.HTTPError as e:
        with e:
            return e.code, e.headers.get("Content-Type", ""), e.read(MAX_BODY)


def _size(body: bytes) -> int:
    text = body.decode("ascii", "replace")
    if not text.endswith("\n") or not text[:-1].isdigit() or len(text) > 21:
        raise _Skip(f"its 409 does not carry a tree size ({text[:40]!r})")
    return int(text[:-1])


def _cosignature(verifier: Verifier, text: bytes, body: bytes) -> Signature:
    """The witness's cosignature among the signature lines of its answer, checked on the checkpoint's text."""
    _, signatures = split(text + b"\n" + body)
    for signature in signatures:
        if (signature.name, signature.id) == (verifier.name, verifier.id):
            if not verifier.verify(text, signature.signature):
                raise _Skip("its cosignature does not verify on this checkpoint with its key")
            return signature
    raise _Skip(f"its answer holds no cosignature of its key {verifier.name}+{verifier.id:08x}")
