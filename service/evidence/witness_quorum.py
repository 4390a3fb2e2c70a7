"""A quorum of witnesses: does a checkpoint note carry the log's signature and the cosignatures of enough of the
named witnesses? (what `--witness VKEY ... --quorum K` asks of a checkpoint). It is read as the C2SP tlog-policy it
stands for (service.evidence.tlog_policy.from_witnesses): one mechanism decides every quorum, a policy file's too."""

from __future__ import annotations

from .signed_notes import NoteError, Verifier
from .tlog_policy import PolicyError, from_witnesses


def check_quorum(note: str | bytes, log_verifier: Verifier, witness_verifiers: list[Verifier], quorum: int) -> list[str]:
    """The names of the given witnesses whose cosignature on `note` verifies, when the log signed it and at least
    `quorum` of them cosigned; raises NoteError naming the witnesses missing (or the signature that fails)."""
    try:
        policy = from_witnesses(list(witness_verifiers), quorum)
    except PolicyError as e:
        raise NoteError(str(e)) from None
    return policy.check(note, log_verifier)
