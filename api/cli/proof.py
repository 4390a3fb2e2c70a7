"""`arbiter proof get RECEIPT --server URL` turns a receipt into a proof bundle (POST /api/v1/log/proofs, asked again
until the next checkpoint holds its leaf); `arbiter proof check BUNDLE --key VKEY` checks a bundle offline, with no
store and no network (service.evidence.proof_check): every failure names what is wrong, exit 1, no traceback."""

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
def get_command(receipt: str, server: str, output: str | None, timeout: float) -> None:
    """Ask SERVER for the proof bundle of the (last) receipt in the file RECEIPT."""
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
    text = json.dumps(body, indent=1, sort_keys=True) + "\n"
    if output is None:
        click.echo(text, nl=False)
    else:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)
        what = "a promise" if "format" not in doc else f"game {doc.get('game')} version {doc.get('version')}"
        click.echo(f"wrote the proof bundle of {what} (leaf "
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


@proof_group.command("check")
@click.argument("bundle", type=click.Path(dir_okay=False))
@click.option("--key", "key_text", required=True,
              help="The log's verifier key (GET /api/v1/log/key: <origin>+<id>+<base64>), or a file holding it.")
@click.option("--witness", "witness_texts", multiple=True, help="A witness's verifier key (or a file); repeat for each.")
@click.option("--quorum", type=click.IntRange(0, 100), default=None,
              help="How many of the named witnesses must have cosigned (default: all of them).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def check_command(bundle: str, key_text: str, witness_texts: tuple[str, ...], quorum: int | None, as_json: bool) -> None:
    """Check the proof bundle BUNDLE offline: the receipt, its leaf, the inclusion proof, the checkpoint's signature
    and the witnesses' cosignatures. Exit 0 when all hold, 1 when one fails, 2 for a file that cannot be read."""
    from service.evidence.proof_check import BundleProblem, check_bundle, read_key

    from service.json_files import FileProblem, read_json

    try:
        doc = read_json(bundle)
    except FileProblem as e:
        click.echo(f"arbiter proof check: {e}", err=True)
        sys.exit(EXIT_INVALID)
    try:
        key = read_key(key_text, "key")
        witnesses = [read_key(w, "witness") for w in witness_texts]
        if quorum is not None and quorum > len(witnesses):
            raise BundleProblem("witnesses", f"a quorum of {quorum} needs at least as many --witness keys "
                                             f"({len(witnesses)} given)")
        passed = check_bundle(doc, key, witnesses, len(witnesses) if quorum is None else quorum)
    except BundleProblem as e:
        if as_json:
            click.echo(json.dumps({"ok": False, "check": e.check, "detail": e.detail}))
        else:
            click.echo(f"proof bundle {bundle}: FAILED {e.check}: {e.detail}", err=True)
        sys.exit(EXIT_PROBLEM)
    if as_json:
        click.echo(json.dumps({"ok": True, "checks": passed}))
    else:
        for line in passed:
            click.echo(f"ok  {line}")
        what = "the promise" if "receipt" not in doc else "the receipt's game head"
        click.echo(f"proof bundle {bundle}: {what} is in the published log")
    sys.exit(EXIT_OK)
