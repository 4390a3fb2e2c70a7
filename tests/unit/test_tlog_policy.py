"""C2SP tlog-policy files (service.evidence.tlog_policy): the spec's own example read and decided; every malformed
file refused naming the line and what is wrong; `--witness ... --quorum K` read as the policy it stands for."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.evidence.cosignatures import Cosigner
from service.evidence.signed_notes import NoteError, Signer, Verifier, open_note
from service.evidence.tlog_policy import (
    PolicyError,
    QuorumNotMet,
    from_witnesses,
    parse,
)
from service.evidence.tree_heads import TreeHead

LOG = Signer("arbiter.test/log", Ed25519PrivateKey.generate())
HEAD = TreeHead("arbiter.test/log", 12, bytes(range(32)))
X = {n: Cosigner(f"x{n}.test", Ed25519PrivateKey.generate()) for n in (1, 2, 3)}
Y = {n: Cosigner(f"y{n}.test", Ed25519PrivateKey.generate()) for n in (1, 2, 3)}

# The spec's example (https://c2sp.org/tlog-policy, "Example policy"), with keys, a URL, comments and tabs.
EXAMPLE = f"""# two organisations' witnesses
log {LOG.verifier.text} https://arbiter.test/

witness X1 {X[1].verifier.text}
witness X2 {X[2].verifier.text}\thttps://x2.test/witness
witness X3 {X[3].verifier.text}
group X-witnesses 2 X1 X2 X3

   witness Y1 {Y[1].verifier.text}
witness Y2 {Y[2].verifier.text}
witness Y3 {Y[3].verifier.text}
group Y-witnesses any Y1 Y2 Y3

group X-and-Y all X-witnesses Y-witnesses
quorum X-and-Y
"""


def cosigned(*witnesses: Cosigner, signer: Signer = LOG) -> str:
    return signer.sign(HEAD.text) + "".join(w.cosign(HEAD.text).line for w in witnesses)


def test_the_spec_s_example_policy_is_read_with_its_logs_witnesses_groups_and_quorum():
    policy = parse(EXAMPLE)
    assert [v.name for v in policy.log_verifiers] == ["arbiter.test/log"]
    assert list(policy.witnesses) == ["X1", "X2", "X3", "Y1", "Y2", "Y3"]
    assert policy.witnesses["X2"][1] == "https://x2.test/witness"
    assert policy.groups["X-witnesses"].threshold == 2 and policy.groups["Y-witnesses"].threshold == 1
    assert policy.groups["X-and-Y"].threshold == 2 and policy.quorum == "X-and-Y"
    assert parse(policy.text).text == policy.text  # what it writes, it reads back the same


def test_a_checkpoint_meets_the_example_quorum_with_two_x_and_one_y_witness():
    assert parse(EXAMPLE).check(cosigned(X[1], X[3], Y[2])) == ["X1", "X3", "Y2"]


@pytest.mark.parametrize("cosigners, missing", [
    ((X[1], Y[1]), "1 of the 3 members of group X-witnesses cosigned (X1), 2 are needed: missing X2, X3"),
    ((X[1], X[2]), "0 of the 3 members of group Y-witnesses cosigned (none), 1 is needed: missing Y1, Y2, Y3"),
])
def test_a_quorum_short_names_the_group_short_and_its_missing_witnesses(cosigners, missing):
    with pytest.raises(QuorumNotMet) as e:
        parse(EXAMPLE).check(cosigned(*cosigners))
    assert "of the 2 members of group X-and-Y cosigned" in str(e.value) and missing in str(e.value)


def test_the_checkpoint_must_be_signed_by_a_listed_log_under_its_origin():
    other = Signer("arbiter.test/log", Ed25519PrivateKey.generate())
    with pytest.raises(NoteError, match="not signed by the log's key arbiter.test/log"):
        parse(EXAMPLE).check(cosigned(X[1], X[2], Y[1], signer=other))
    stranger = Signer("elsewhere.test/log", Ed25519PrivateKey.generate())
    note = stranger.sign(TreeHead("elsewhere.test/log", 1, bytes(32)).text)
    with pytest.raises(NoteError, match="origin 'elsewhere.test/log' is none of the policy's logs"):
        parse(EXAMPLE).check(note)


def test_a_log_key_given_beside_a_policy_must_be_one_it_lists():
    other = Signer("arbiter.test/log", Ed25519PrivateKey.generate())
    with pytest.raises(NoteError, match="none of the policy's logs"):
        parse(EXAMPLE).check(cosigned(X[1], X[2], Y[1], signer=other), other.verifier)


def test_a_policy_without_logs_takes_the_log_key_from_the_caller_and_quorum_none_needs_no_witness():
    policy = parse(f"witness w {X[1].verifier.text}\nquorum none\n")
    assert policy.check(cosigned(), LOG.verifier) == []
    assert parse(f"witness w {X[1].verifier.text}\nquorum w\n").check(cosigned(X[1]), LOG.verifier) == ["w"]


def test_a_cosignature_by_another_key_under_a_policy_witness_s_name_does_not_count():
    impostor = Cosigner("x2.test", Ed25519PrivateKey.generate())
    with pytest.raises(QuorumNotMet, match="missing X2, X3"):
        parse(EXAMPLE).check(cosigned(X[1], impostor, Y[1]))


@pytest.mark.parametrize("text, problem", [
    ("quorum none\nquorum none\n", "line 2: a second quorum line (the first is line 1)"),
    (f"witness w {X[1].verifier.text}\n", "no quorum line"),
    ("quorum ghost\n", "line 1: the quorum names 'ghost', an unknown witness or group"),
    (f"witness w {X[1].verifier.text}\ngroup g any w ghost\nquorum g\n",
     "line 2: group 'g' names 'ghost', an unknown witness or group"),
    (f"group a any b\ngroup b any a\nwitness w {X[1].verifier.text}\nquorum a\n",
     "line 1: group 'a' names 'b', which is defined only on line 2, after this one (a circular definition)"),
    ("group a any a\nquorum a\n", "line 1: group 'a' lists itself: a circular group"),
    (f"quorum w\nwitness w {X[1].verifier.text}\n", "line 1: the quorum names 'w', which is defined only on line 2"),
    (f"witness w {X[1].verifier.text}\nwitness w {X[2].verifier.text}\nquorum w\n", "line 2: 'w' is already defined"),
    (f"witness w {X[1].verifier.text}\nwitness v {X[1].verifier.text}\nquorum w\n",
     "line 2: witness 'v' has the same public key as witness 'w'"),
    (f"log {LOG.verifier.text}\nlog {Verifier('other.test/log', 0x01, LOG.verifier.public).text}\nquorum none\n",
     "line 2: log other.test/log has the same public key as the log arbiter.test/log"),
    (f"witness w {X[1].verifier.text}\ngroup g 2 w\nquorum g\n", "line 2: group 'g': threshold 2 must be between 1"),
    (f"witness w {X[1].verifier.text}\ngroup g 0 w\nquorum g\n", "threshold 0 must be between 1"),
    (f"witness w {X[1].verifier.text}\ngroup g most w\nquorum g\n", "threshold 'most' is not 'all', 'any' or a"),
    (f"witness w {X[1].verifier.text}\ngroup g any w w\nquorum g\n", "lists 'w' more than once"),
    (f"witness w {X[1].verifier.text}\ngroup g any none\nquorum g\n", "lists 'none', which cannot be a group member"),
    (f"witness none {X[1].verifier.text}\nquorum none\n", "'none' is predefined"),
    (f"witness w {LOG.verifier.text}\nquorum w\n", "line 1: witness 'w': arbiter.test/log's key is not a cosignature"),
    (f"log {X[1].verifier.text}\nquorum none\n", "line 1: log: x1.test's key is not an Ed25519 signing key"),
    ("witness w x.test+00000000+AAAA\nquorum w\n", "line 1: witness 'w': verifier key of x.test"),
    (f"witness w {X[1].verifier.text[:-6]}zzzzzz\nquorum w\n", "line 1: witness 'w'"),
    ("witness w\nquorum none\n", "line 1: expected 'witness <name> <vkey> [<url>]'"),
    ("quorum none\r\n", "line 1: byte 0x0d is not allowed"),
    ("quorum\x00 none\n", "line 1: byte 0x00 is not allowed"),
    ("witnesses w k\nquorum none\n", "line 1: unknown keyword 'witnesses'"),
    ("quorum none extra\n", "line 1: expected 'quorum <name>' or 'quorum none'"),
])
def test_a_malformed_policy_is_refused_naming_the_line_and_what_is_wrong(text, problem):
    with pytest.raises(PolicyError) as e:
        parse(text, "policy p.txt")
    assert problem in str(e.value) and str(e.value).startswith("policy p.txt")


def test_a_policy_with_an_unknown_key_type_is_refused_naming_the_witness():
    mldsa = "w.test+01234567+Bg" + "A" * 42  # algorithm 0x06 (ML-DSA cosignatures), not one arbiter verifies
    with pytest.raises(PolicyError, match="line 1: witness .w.: verifier key of w.test: expected an algorithm byte .* found algorithm 0x06"):
        parse(f"witness w {mldsa}\nquorum w\n")


def test_names_are_opaque_octets_and_a_hash_inside_a_line_is_no_comment():
    policy = parse(f"witness K {X[1].verifier.text}\nwitness \u212a {X[2].verifier.text}\ngroup g#1 all K \u212a\n"
                   "quorum g#1\n".encode())
    assert len(policy.witnesses) == 2 and policy.quorum == "g#1"


def test_witness_and_quorum_options_are_read_as_the_policy_they_stand_for():
    policy = from_witnesses([X[1].verifier, X[2].verifier, X[3].verifier], 2)
    assert policy.text.endswith("group named-witnesses 2 x1.test x2.test x3.test\nquorum named-witnesses\n")
    assert policy.check(cosigned(X[1], X[3]), LOG.verifier) == ["x1.test", "x3.test"]
    with pytest.raises(QuorumNotMet, match="1 of the named witnesses cosigned"):
        policy.check(cosigned(X[2]), LOG.verifier)
    assert from_witnesses([X[1].verifier], 0).quorum == "none"
    assert from_witnesses([X[1].verifier, X[2].verifier]).groups["named-witnesses"].threshold == 2  # default: all


def test_two_keys_under_one_witness_name_count_as_one_witness():
    rotated = Cosigner("x1.test", Ed25519PrivateKey.generate())
    policy = from_witnesses([X[1].verifier, rotated.verifier, X[2].verifier], 2)
    assert policy.check(cosigned(rotated, X[2]), LOG.verifier) == ["x1.test#2", "x2.test"]
    with pytest.raises(QuorumNotMet):
        policy.check(cosigned(X[1], rotated), LOG.verifier)
    with pytest.raises(PolicyError, match="a quorum of 3 cannot be met by 2 named witness"):
        from_witnesses([X[1].verifier, rotated.verifier, X[2].verifier], 3)


def test_a_policy_opens_a_note_with_every_witness_key_it_knows():
    opened = open_note(cosigned(X[1], Y[1]), [LOG.verifier, *parse(EXAMPLE).witness_verifiers])
    assert {s.name for s in opened.verified} == {"arbiter.test/log", "x1.test", "y1.test"}



@given(cut=st.integers(0, len(EXAMPLE)), junk=st.binary(max_size=6), at=st.integers(0, len(EXAMPLE)))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_damaged_policy_is_read_or_refused_naming_the_line_never_an_exception(cut, junk, at):
    raw = EXAMPLE.encode()
    damaged = (raw[:at] + junk + raw[at:])[:cut]
    try:
        policy = parse(damaged, "policy p")
    except PolicyError as e:
        assert str(e).startswith("policy p")
    else:
        assert policy.quorum == "none" or policy.quorum in policy.witnesses or policy.quorum in policy.groups
