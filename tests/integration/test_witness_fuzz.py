"""The witness's request bodies fuzzed (api/witness, C2SP tlog-witness): hypothesis mutates a good add-checkpoint
request (bytes flipped, cut, repeated, lines added or dropped, invalid UTF-8, huge sizes) and sends random bytes;
every answer is a plain-text 200, 400, 403, 404, 409 or 413, never a 500 or a traceback, and the witness still
cosigns afterwards (issue 38: every body a stranger can hand arbiter is read under bounds)."""

from __future__ import annotations

import os

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings

from api.witness.app import create_witness_app
from service.witness.logs import known_logs
from service.witness.witness import Witness as WitnessService

from .witness_support import Operator

EXAMPLES = int(os.environ.get("ARBITER_FUZZ_EXAMPLES", 150))


def witness_app(tmp_path_factory):
    log = Operator()
    folder = tmp_path_factory.mktemp("witness")
    witness = WitnessService.open(folder / "key", "witness.test", folder / "state.db",
                                  known_logs([log.signer.verifier.text]))
    return log, create_witness_app(witness, max_body=64 * 1024).test_client()


@st.composite
def mutated(draw, good: bytes) -> bytes:
    body = bytearray(good)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "cut", "insert", "repeat", "line"]))
        at = draw(st.integers(0, max(0, len(body) - 1)))
        if kind == "flip" and body:
            body[at] = draw(st.integers(0, 255))
        elif kind == "cut":
            del body[at:at + draw(st.integers(1, 40))]
        elif kind == "insert":
            body[at:at] = draw(st.binary(max_size=40) | st.sampled_from([b"\xff\xfe", b"\n", b"old 99999999999999999999\n",
                                                                          b"\n\n", "\u2014 ".encode()]))
        elif kind == "repeat":
            body[at:at] = bytes(body[at:at + 60]) * draw(st.integers(2, 100))
        else:
            body[at:at] = draw(st.sampled_from([b"AAAA\n", b"=" * 44 + b"\n", b"\n", b"old 0\n"]))
    return bytes(body)


def check(answer) -> None:
    assert answer.status_code in (200, 400, 403, 404, 409, 413), (answer.status_code, answer.text[:300])
    assert answer.mimetype.startswith("text/"), answer.mimetype
    assert "Traceback" not in answer.text and answer.text.strip()


def test_mutated_and_random_request_bodies_are_answered_in_plain_text_without_a_500(tmp_path_factory):
    log, http = witness_app(tmp_path_factory)
    good = log.request(0, 5)

    @given(body=mutated(good) | st.binary(max_size=2000))
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    def fuzz(body):
        check(http.post("/add-checkpoint", data=body))

    fuzz()
    assert http.post("/add-checkpoint", data=good).status_code in (200, 409), "the witness still cosigns"
