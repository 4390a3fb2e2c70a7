"""C2SP signed notes, checkpoints and cosignatures (service.evidence.signed_notes, tree_heads, cosignatures): what
they accept, and that every malformed or forged input is refused with a message naming what is wrong."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.evidence.cosignatures import Cosigner, cosignature_time
from service.evidence.signed_notes import NoteError, Signer, Verifier, open_note, split
from service.evidence.tree_heads import TreeHead

HEAD = TreeHead("arbiter.test/log", 5, bytes(range(32)))


def signer(name="arbiter.test/log") -> Signer:
    return Signer(name, Ed25519PrivateKey.generate())


def test_a_checkpoint_text_is_origin_size_and_base64_root_each_on_its_line():
    assert HEAD.text == b"arbiter.test/log\n5\n" + base64.b64encode(bytes(range(32))) + b"\n"
    assert TreeHead.parse(HEAD.text) == HEAD
    assert TreeHead.parse(HEAD.text + b"ext line\n").extensions == ("ext line",)


@pytest.mark.parametrize("text, problem", [
    (b"arbiter.test/log\n5\n", "three lines"),
    (b"arbiter.test/log\n05\n" + base64.b64encode(bytes(32)) + b"\n", "not a decimal"),
    (b"arbiter.test/log\n-1\n" + base64.b64encode(bytes(32)) + b"\n", "not a decimal"),
    (b"arbiter.test/log\n5\nnot base64!\n", "32 bytes"),
    (b"arbiter.test/log\n5\n" + base64.b64encode(bytes(31)) + b"\n", "32 bytes"),
    (b" arbiter.test/log\n5\n" + base64.b64encode(bytes(32)) + b"\n", "origin"),
    (b"arbiter.test/log\n5\n" + base64.b64encode(bytes(32)), "newline"),
])
def test_a_malformed_checkpoint_is_refused_naming_the_line(text, problem):
    with pytest.raises(NoteError, match=problem):
        TreeHead.parse(text)


def test_a_signed_note_opens_with_its_key_and_names_the_signer():
    key = signer()
    note = open_note(key.sign(HEAD.text), [key.verifier])
    assert note.text == HEAD.text and note.signed_by("arbiter.test/log") and not note.unverified


def test_the_verifier_key_text_round_trips_and_its_id_is_checked():
    key = signer()
    assert Verifier.parse(key.verifier.text) == key.verifier
    name, hex_id, b64 = key.verifier.text.split("+", 2)
    wrong = f"{name}+{(int(hex_id, 16) ^ 1):08x}+{b64}"
    with pytest.raises(NoteError, match="does not match"):
        Verifier.parse(wrong)
    for bad in ("nope", f"{name}+zz+{b64}", f"{name}+{hex_id}+!!", f"a b+{hex_id}+{b64}"):
        with pytest.raises(NoteError):
            Verifier.parse(bad)


@pytest.mark.parametrize("change, problem", [
    (lambda n: n.replace("\n5\n", "\n6\n"), "does not verify"),
    (lambda n: n.replace("\n\n", "\n"), "no signature block"),
    (lambda n: n[:-1], "end with a newline"),
    (lambda n: n.replace("\u2014 ", "- "), "expected"),
    (lambda n: n + "\u2014 other x\n", "not base64|too short"),
])
def test_an_altered_or_malformed_note_is_refused(change, problem):
    key = signer()
    with pytest.raises(NoteError, match=problem):
        open_note(change(key.sign(HEAD.text)), [key.verifier])


def test_a_note_signed_by_another_key_of_the_same_name_is_refused():
    ours, theirs = signer(), signer()
    with pytest.raises(NoteError, match="no signature of a known key"):
        open_note(theirs.sign(HEAD.text), [ours.verifier])


def test_unknown_signers_are_kept_unverified_and_never_count():
    key, stranger = signer(), signer("stranger.test")
    note = key.sign(HEAD.text) + stranger.signature_line(HEAD.text)
    opened = open_note(note, [key.verifier])
    assert [s.name for s in opened.verified] == ["arbiter.test/log"]
    assert [s.name for s in opened.unverified] == ["stranger.test"]


def test_a_witness_cosignature_verifies_its_time_and_the_checkpoint():
    key, witness = signer(), Cosigner("witness.test", Ed25519PrivateKey.generate())
    cosig = witness.cosign(HEAD.text, timestamp=1_790_000_000)
    assert cosignature_time(cosig) == 1_790_000_000
    note = open_note(key.sign(HEAD.text) + cosig.line, [key.verifier, witness.verifier])
    assert note.signed_by("witness.test")
    _, sigs = split(key.sign(HEAD.text) + cosig.line)
    forged_time = sigs[1].signature[:7] + b"\x01" + sigs[1].signature[8:]
    forged = key.sign(HEAD.text) + type(cosig)(cosig.name, cosig.id, forged_time).line
    with pytest.raises(NoteError, match="witness.test.*does not verify"):
        open_note(forged, [key.verifier, witness.verifier])


def test_a_cosignature_of_another_checkpoint_does_not_verify():
    key, witness = signer(), Cosigner("witness.test", Ed25519PrivateKey.generate())
    other = TreeHead("arbiter.test/log", 6, bytes(32))
    note = key.sign(HEAD.text) + witness.cosign(other.text).line
    with pytest.raises(NoteError, match="does not verify"):
        open_note(note, [key.verifier, witness.verifier])


@pytest.mark.parametrize("char", ["\x00", "\t", "\r", "\x1b", "\x1f"])
def test_a_note_text_holding_a_control_character_other_than_newline_is_never_signed(char):
    with pytest.raises(NoteError, match="control character"):
        signer().sign(f"arbiter.test/log\nline{char}two\n")


@pytest.mark.parametrize("text", ["arbiter.test/log\nspace and é ü 東 \x7f\n", "arbiter.test/log\n\n"])
def test_a_note_text_of_printable_characters_and_newlines_is_signed(text):
    note = signer().sign(text)
    assert note.startswith(text + "\n")
