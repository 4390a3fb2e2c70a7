"""`arbiter proof get RECEIPT --server URL` turns a receipt into a proof (POST /api/v1/log/proofs, asked again until
the next checkpoint holds its leaf), as an `arbiter.proof/1` bundle or a C2SP tlog-proof (`--format tlog-proof`);
`arbiter proof check PROOF --key VKEY` checks either offline, with no store and no network
(service.evidence.proof_check), against a witness quorum (`--witness ... --quorum K`, or a C2SP tlog-policy file with
`--policy FILE`); `arbiter proof policy` writes the policy that `--witness ... --quorum K` stands for. Every failure
names what is wrong, exit 1 (2 for a file that cannot be read), no traceback."""

from __future__ import annotations

import json
import sys
import time
import urllib.error
import urllib.request

import click

from domain import json_limits
from domain.json_limits import MAX_DOCUMENT_BYTES

from .evidence import EXIT_INVALID, EXIT_OK, EXIT_PROBLEM, read_receipts


@click.group("proof")
def proof_group() -> None:
    """Proof bundles: a receipt with the proof that a published checkpoint holds its game head."""


@proof_group.command("get")
@click.argument("receipt", type=click.Path(dir_okay=False))
@click.option("--server", required=True, help="The arbiter server's base URL, e.g. https://arbiter.example.org")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, help="Write the bundle here (default stdout).")
@click.option("--timeout", type=click.FloatRange(0, 3600), default=120, show_default=True,
              help="Seconds to keep asking while the receipt's leaf waits for the next checkpoint.")
@click.option("--format", "form", type=click.Choice(["arbiter.proof/1", "tlog-proof"]), default="arbiter.proof/1",
              show_default=True, help="arbiter's JSON bundle (with the receipt), or a C2SP tlog-proof (the leaf in its "
                                      "extra line; keep the receipt beside it).")
def get_command(receipt: str, server: str, output: str | None, timeout: float, form: str) -> None:
    """Ask SERVER for the proof of the (last) receipt in the file RECEIPT."""
    doc = read_receipts(receipt)[-1]
    url = server.rstrip("/") + "/api/v1/log/proofs"
    deadline = time.monotonic() + timeout
    while True:
        status, body = _post(url, doc)
        if not isinstance(body, dict):
            body = {"detail": str(body)[:300]}
        if status == 200:
            break
        if status != 202:
            detail = body.get("detail") if isinstance(body, dict) else str(body)[:300]
            click.echo(f"arbiter proof get: the server refused the receipt ({status}): {detail}", err=True)
            sys.exit(EXIT_INVALID if status in (400, 409, 422) else EXIT_PROBLEM)
        wait = _seconds(body.get("retry_after"))
        if time.monotonic() + wait > deadline:
            click.echo(f"arbiter proof get: still waiting after {timeout:g} s: {body.get('detail')}", err=True)
            sys.exit(EXIT_PROBLEM)
        click.echo(f"waiting {wait:g} s: {body.get('detail')}", err=True)
        time.sleep(wait)
    if form == "tlog-proof":
        from service.evidence.tlog_proof import ProofFormatError, from_bundle

        try:
            text = from_bundle(body).text
        except ProofFormatError as e:
            click.echo(f"arbiter proof get: {url} answered with a bundle that is no proof: {e}", err=True)
            sys.exit(EXIT_PROBLEM)
    else:
        text = json.dumps(body, indent=1, sort_keys=True) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)
        what = "a promise" if "format" not in doc else f"game {doc.get('game')} version {doc.get('version')}"
        click.echo(f"wrote the proof ({form}) of {what} (leaf "
                   f"{body['index']} of {body['tree_size']}) to {output}", err=True)


def _seconds(value) -> float:
    """A 202's `retry_after`, within 0.1 to 300 seconds (5 when it is not a number)."""
    try:
        wait = float(value)
    except (TypeError, ValueError):
        return 5.0
    return min(300.0, max(0.1, wait)) if wait == wait else 5.0


def _post(url: str, doc) -> tuple[int, object]:
    request = urllib.request.Request(url, data=json.dumps(doc).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            status, data = r.status, r.read(MAX_DOCUMENT_BYTES + 1)
    except urllib.error.HTTPError as e:
        try:
            return e.code, json_limits.read_document(e.read(MAX_DOCUMENT_BYTES + 1))
        except ValueError:
            return e.code, {"detail": e.reason}
    except (urllib.error.URLError, OSError, ValueError) as e:
        click.echo(f"arbiter proof get: cannot reach {url}: {getattr(e, 'reason', e)}", err=True)
        sys.exit(EXIT_PROBLEM)
    try:  # a server is a stranger too: its answer is read within the same bounds as a file
        body = json_limits.read_document(data)
    except json_limits.LimitError as e:
        click.echo(f"arbiter proof get: {url} answered {status} with what is not a bounded JSON document: {e}", err=True)
        sys.exit(EXIT_PROBLEM)
    if status == 200 and not (isinstance(body, dict) and isinstance(body.get("index"), int)
                              and isinstance(body.get("tree_size"), int)):
        click.echo(f"arbiter proof get: {url} answered 200 with what is not a proof bundle", err=True)
        sys.exit(EXIT_PROBLEM)
    return status, body


def reader_policy(policy_file: str | None, witness_texts: tuple[str, ...], quorum: int | None):
    """The witness policy a reader demands: the tlog-policy file, or the one `--witness ... --quorum K` stands for
    (None when neither is given); raises click.UsageError naming what is wrong (exit 2)."""
    from service.evidence.proof_check import BundleProblem, read_key
    from service.evidence.tlog_policy import PolicyError, from_witnesses, read

    if policy_file is not None and (witness_texts or quorum is not None):
        raise click.UsageError("give --policy FILE or --witness ... [--quorum K], not both (a policy file names its "
                               "witnesses and its quorum)")
    try:
        if policy_file is not None:
            return read(policy_file)
        if not witness_texts and quorum is None:
            return None
        return from_witnesses([read_key(w, "witness") for w in witness_texts], quorum)
    except BundleProblem as e:
        raise click.UsageError(f"--witness: {e.detail}") from None
    except PolicyError as e:
        raise click.UsageError(f"--quorum: {e}" if policy_file is None else str(e)) from None


@proof_group.command("check")
@click.argument("proof", type=click.Path(dir_okay=False))
@click.option("--key", "key_text", default=None,
              help="The log's verifier key (GET /api/v1/log/key: <origin>+<id>+<base64>), or a file holding it; "
                   "optional when --policy lists the log.")
@click.option("--witness", "witness_texts", multiple=True, help="A witness's verifier key (or a file); repeat for each.")
@click.option("--quorum", type=click.IntRange(0, 100), default=None,
              help="How many of the named witnesses must have cosigned (default: all of them).")
@click.option("--policy", "policy_file", type=click.Path(dir_okay=False), default=None,
              help="A C2SP tlog-policy file: the logs accepted, the witnesses and the quorum the checkpoint must meet "
                   "(instead of --witness/--quorum).")
@click.option("--leaf", "leaf_file", type=click.Path(dir_okay=False), default=None,
              help="tlog-proof: a file holding the leaf's bytes (the checkpoint line), for a proof without an extra "
                   "line.")
@click.option("--receipt", "receipt_file", type=click.Path(dir_okay=False), default=None,
              help="tlog-proof: the receipt the proof is for (its game, version and head must be the leaf's).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def check_command(proof: str, key_text: str | None, witness_texts: tuple[str, ...], quorum: int | None,
                  policy_file: str | None, leaf_file: str | None, receipt_file: str | None, as_json: bool) -> None:
    """Check the proof PROOF offline, an arbiter.proof/1 bundle or a C2SP tlog-proof (told apart by content): the
    receipt, the leaf, the inclusion proof, the checkpoint's signature and the witnesses' cosignatures. Exit 0 when
    all hold, 1 when one fails, 2 for a file that cannot be read."""
    from service.evidence.proof_check import BundleProblem, check_bundle, check_file, read_key
    from service.evidence.tlog_proof import HEADER, is_tlog_proof
    from service.json_files import FileProblem, parse, read_bytes

    policy = reader_policy(policy_file, witness_texts, quorum)
    try:
        data = read_bytes(proof)  # the one bound of a file read as a document (docs/api.md limits)
        doc = None
        if not is_tlog_proof(data):
            try:
                doc = parse(proof, data)
            except FileProblem as e:
                raise FileProblem(proof, f"neither a C2SP tlog-proof (its first line {HEADER}) nor a JSON proof "
                                         f"bundle ({e.reason})") from None
        leaf = _leaf_bytes(read_bytes(leaf_file)) if leaf_file else None
    except FileProblem as e:
        click.echo(f"arbiter proof check: {e}", err=True)
        sys.exit(EXIT_INVALID)
    receipt = read_receipts(receipt_file)[-1] if receipt_file else None
    if key_text is None and not (policy and policy.logs):
        raise click.UsageError("give the log's key with --key (or a --policy that lists the log)")
    try:
        key = read_key(key_text, "key") if key_text is not None else None
        if doc is not None and leaf is None and receipt is None:
            done = check_bundle(doc, key, policy)
        else:  # a tlog-proof (or a bundle given a leaf or receipt it does not take: check_file says so)
            done = check_file(data, key, policy, leaf, receipt)
    except BundleProblem as e:
        if as_json:
            click.echo(json.dumps({"ok": False, "check": e.check, "detail": e.detail}))
        else:
            click.echo(f"proof {proof}: FAILED {e.check}: {e.detail}", err=True)
        sys.exit(EXIT_PROBLEM)
    if as_json:
        click.echo(json.dumps(done.as_dict()))
    else:
        for line in done.passed:
            click.echo(f"ok  {line}")
        leaf = done.leaf
        click.echo(f"proof {proof} ({done.format}): game {leaf['game']} at version {leaf['version']} is in the "
                   "published log" + (", covering the promise" if any(p.startswith("promise:") for p in done.passed)
                                      else ""))
    sys.exit(EXIT_OK)


def _leaf_bytes(data: bytes) -> bytes:
    """A leaf given in a file: the checkpoint line's bytes (a newline after it, as a text editor adds, is not part of
    the line: a checkpoint line never ends in one)."""
    return data[:-1] if data.endswith(b"\n") else data


@proof_group.command("policy")
@click.option("--key", "key_texts", multiple=True, help="A log's verifier key (or a file) to list; repeat for each.")
@click.option("--witness", "witness_texts", multiple=True, help="A witness's verifier key (or a file); repeat for each.")
@click.option("--quorum", type=click.IntRange(0, 100), default=None,
              help="How many of the named witnesses must have cosigned (default: all of them).")
def policy_command(key_texts: tuple[str, ...], witness_texts: tuple[str, ...], quorum: int | None) -> None:
    """Print the C2SP tlog-policy that --witness ... --quorum K stands for (and the logs of --key), to keep as the
    file `--policy` reads."""
    from service.evidence.proof_check import BundleProblem, read_key
    from service.evidence.tlog_policy import PolicyError, from_witnesses

    try:
        logs = [read_key(k, "key") for k in key_texts]
        policy = from_witnesses([read_key(w, "witness") for w in witness_texts], quorum, logs)
    except BundleProblem as e:
        raise click.UsageError(f"--{e.check}: {e.detail}") from None
    except PolicyError as e:
        raise click.UsageError(str(e)) from None
    click.echo(policy.text, nl=False)
