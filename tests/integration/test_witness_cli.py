"""`arbiter witness` refuses what it cannot serve with a line naming what is wrong (exit 2, no traceback), and
`--print-key` prints the key a log's operator configures."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from api.cli.main import main
from service.evidence.signed_notes import COSIGNATURE, Verifier

from .witness_support import Operator


def run(tmp_path, *args):
    return CliRunner().invoke(main, ["witness", "--key", str(tmp_path / "w.key"), "--state", str(tmp_path / "w.db"),
                                     *args])


def test_print_key_makes_the_key_once_and_prints_its_cosigner_verifier_key(tmp_path):
    first = run(tmp_path, "--name", "witness.test", "--print-key")
    assert first.exit_code == 0
    verifier = Verifier.parse(first.output.strip())
    assert (verifier.name, verifier.algorithm) == ("witness.test", COSIGNATURE)
    assert run(tmp_path, "--name", "witness.test", "--print-key").output == first.output


@pytest.mark.parametrize("args, says", [
    (["--name", "witness.test"], "knows no log"),
    (["--name", "witness.test", "--log", "nonsense"], "--log: verifier key 'nonsense'"),
    (["--name", "a b", "--log", Operator().signer.verifier.text], "witness name"),
    (["--name", "witness.test", "--config", "/nonexistent/logs.txt"], "cannot be read"),
])
def test_a_witness_that_cannot_serve_says_why(tmp_path, args, says):
    result = run(tmp_path, *args)
    assert result.exit_code == 2 and says in result.output and "Traceback" not in result.output


def test_a_log_key_that_is_a_cosigner_key_is_refused(tmp_path):
    witness_key = run(tmp_path, "--name", "witness.test", "--print-key").output.strip()
    result = run(tmp_path, "--name", "witness.test", "--log", witness_key)
    assert result.exit_code == 2 and "not an Ed25519 signing key" in result.output


def test_a_config_file_names_logs_with_their_origin(tmp_path):
    from service.witness.logs import known_logs

    a, b = Operator("a.test/log"), Operator("b.test/log")
    config = tmp_path / "logs.txt"
    config.write_text(f"# logs\n{a.signer.verifier.text}\n\nb.test/log {b.signer.verifier.text}\n"
                      f"renamed.test/log {a.signer.verifier.text}\n")
    logs = known_logs([a.signer.verifier.text], config)
    assert {o: [v.name for v in log.verifiers] for o, log in logs.items()} == {
        "a.test/log": ["a.test/log"], "b.test/log": ["b.test/log"], "renamed.test/log": ["a.test/log"]}
    config.write_text("one two three\n")
    result = run(tmp_path, "--name", "witness.test", "--config", str(config))
    assert result.exit_code == 2 and "line 1" in result.output
