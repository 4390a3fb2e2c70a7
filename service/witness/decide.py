"""The add-checkpoint decision of a witness: a pure function of the log the witness knows, what it recorded for
that log, and the request, giving the answer and the state to record (C2SP tlog-witness, in the spec's order).

    unknown origin                                   404
    no signature of a trusted key of the log         403
    old > the checkpoint's size                      400
    old is not the size the witness recorded         409, the recorded size as the body (text/x.tlog.size)
    old = size, but another root than recorded       409: the log shows two trees of one size (a split view)
    the consistency proof does not hold              422: the checkpoint does not extend what was cosigned
    otherwise                                        200, the cosignature line; the checkpoint is recorded

So the witness cosigns a checkpoint only when it extends, by a proof, the one it cosigned last: never a smaller tree
after a bigger one (old must be the recorded size, and old <= size), never a second root for a size.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.evidence.cosignatures import Cosigner
from service.evidence.merkle import ProofError, check_consistency
from service.evidence.signed_notes import Verifier

from .protocol import SIZE, AddCheckpoint, Answer


@dataclass(frozen=True)
class KnownLog:
    """A log the witness cosigns for: its origin and the keys its checkpoints may be signed with."""

    origin: str
    verifiers: tuple[Verifier, ...]


@dataclass(frozen=True)
class Recorded:
    """What the witness keeps of a log: the size and root of the last checkpoint it cosigned, and its text."""

    size: int
    root: bytes
    text: bytes = b""


@dataclass(frozen=True)
class Decision:
    """The answer; the state to record (None: keep what is recorded); and, for a request a trusted key signed that
    shows the log misbehaving, why it is kept as evidence."""

    answer: Answer
    recorded: Recorded | None = None
    evidence: str | None = None


def decide(log: KnownLog | None, recorded: Recorded | None, request: AddCheckpoint, cosigner: Cosigner,
           now: int) -> Decision:
    """The witness's answer to `request`, given the log of its origin (None: unknown) and what it recorded (None:
    nothing yet); the cosignature, if any, is made at time `now`."""
    head = request.head
    if log is None:
        return Decision(Answer(404, f"unknown log origin {head.origin!r}: this witness does not cosign for it\n"))
    trusted = {(v.name, v.id): v for v in log.verifiers}
    if not any((s.name, s.id) in trusted and trusted[s.name, s.id].verify(request.text, s.signature)
               for s in request.signatures):
        keys = ", ".join(f"{v.name}+{v.id:08x}" for v in log.verifiers)
        return Decision(Answer(403, f"no signature of a trusted key of {head.origin} verifies (trusted: {keys})\n"))
    if request.old > head.size:
        return Decision(Answer(400, f"old size {request.old} is larger than the checkpoint's size {head.size}\n"))
    have = recorded.size if recorded else 0
    if request.old != have:
        return Decision(Answer(409, f"{have}\n", SIZE))
    if recorded and head.size == recorded.size and head.root != recorded.root:
        why = (f"split view: {head.origin} signed a second root for tree size {head.size}, other than the one this "
               "witness cosigned")
        return Decision(Answer(409, f"{have}\n", SIZE), evidence=why)
    try:
        check_consistency(request.old, head.size, recorded.root if recorded else head.root, head.root, request.proof)
    except ProofError as e:
        why = f"the consistency proof from size {request.old} to {head.size} does not hold: {e}"
        return Decision(Answer(422, why + "\n"), evidence=why if recorded and request.proof else None)
    return Decision(Answer(200, cosigner.cosign(request.text, now).line), Recorded(head.size, head.root, request.text))
