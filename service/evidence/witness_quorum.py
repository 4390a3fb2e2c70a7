"""A quorum of witnesses: does a checkpoint note carry the log's signature and the cosignatures of enough of the
named witnesses? (what `proof check` and `verify --all` demand when given witnesses)."""

from __future__ import annotations

from .signed_notes import NoteError, Verifier, open_note


def check_quorum(note: str | bytes, log_verifier: Verifier, witness_verifiers: list[Verifier], quorum: int) -> list[str]:
    """The names of the given witnesses whose cosignature on `note` verifies, when the log signed it and at least
    `quorum` of them cosigned; raises NoteError naming the witnesses missing (or the signature that fails)."""
    if not 0 <= quorum <= len({v.name for v in witness_verifiers}):
        raise NoteError(f"a quorum of {quorum} cannot be met by {len(witness_verifiers)} named witness key(s)")
    opened = open_note(note, [log_verifier, *witness_verifiers])  # a known key whose signature fails: NoteError
    if not any((s.name, s.id) == (log_verifier.name, log_verifier.id) for s in opened.verified):
        raise NoteError(f"the note is not signed by the log's key {log_verifier.name}+{log_verifier.id:08x}")
    signed = {(s.name, s.id) for s in opened.verified}
    cosigned = sorted({v.name for v in witness_verifiers if (v.name, v.id) in signed})
    if len(cosigned) < quorum:
        missing = sorted({v.name for v in witness_verifiers} - set(cosigned))
        raise NoteError(f"{len(cosigned)} of the named witnesses cosigned, {quorum} are needed: missing "
                        f"{', '.join(missing)}" + (f" (cosigned: {', '.join(cosigned)})" if cosigned else ""))
    return cosigned
