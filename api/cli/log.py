"""`arbiter log mirror DIR --from PREFIX --key VKEY` copies the transparency log's C2SP tlog-tiles (a server's
/api/v1/log, or another mirror) into a directory any static file server can serve, checked before anything is
written; `arbiter log check DIR --key VKEY` checks such a directory (service.evidence.tile_mirror). Exit 0 when the
log (the mirror) holds, 1 when a check fails (an altered tile, a fork, a log gone back), 2 for a key or a source
that cannot be read; every failure is named, never a traceback."""

from __future__ import annotations

import json
import sys

import click

EXIT_OK, EXIT_PROBLEM, EXIT_INVALID = 0, 1, 2
KEY_HELP = "The log's verifier key (GET /api/v1/log/key: <origin>+<id>+<base64>), or a file holding it."


@click.group("log")
def log_group() -> None:
    """The transparency log as static tiles: mirror it, check a mirror."""


def _key(text: str):
    from service.evidence.proof_check import BundleProblem, read_key

    try:
        return read_key(text, "key")
    except BundleProblem as e:
        raise click.BadParameter(e.detail, param_hint="--key") from None


def _report(done, as_json: bool, what: str) -> None:
    doc = {"ok": True, "origin": done.origin, "size": done.size, "root": done.root.hex(), "files": done.files,
           "written": done.written, "previous": done.previous}
    if as_json:
        click.echo(json.dumps(doc))
    else:
        click.echo(f"{what}: {done.origin}, {done.size} leaves, {done.files} files"
                   + (f", {done.written} written" if done.written else "")
                   + (f" (extends the {done.previous} leaves held before)" if done.previous is not None else ""))


def _fail(e, as_json: bool, code: int) -> None:
    if as_json:
        click.echo(json.dumps({"ok": False, "detail": str(e)}))
    else:
        click.echo(f"arbiter log: {e}", err=True)
    sys.exit(code)


@log_group.command("mirror")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--from", "source", required=True,
              help="The log's tlog-tiles prefix: https://HOST/api/v1/log, or another mirror's URL.")
@click.option("--key", "key_text", required=True, help=KEY_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def mirror_command(directory: str, source: str, key_text: str, as_json: bool) -> None:
    """Copy the log's latest checkpoint and tiles into DIRECTORY (checked first: its signature, every tile against the
    checkpoint's root, and that it extends the checkpoint DIRECTORY held). Run it again to follow the log."""
    from service.evidence.tile_mirror import MirrorError, SourceError, http_source, mirror

    key = _key(key_text)
    if not source.startswith(("http://", "https://")):
        raise click.BadParameter(f"{source[:80]!r}: an http:// or https:// URL", param_hint="--from")
    try:
        done = mirror(http_source(source), directory, key, source)
    except SourceError as e:
        _fail(e, as_json, EXIT_INVALID)
    except MirrorError as e:
        _fail(e, as_json, EXIT_PROBLEM)
    except OSError as e:
        _fail(f"{directory}: cannot be written ({e})", as_json, EXIT_INVALID)
    _report(done, as_json, f"mirrored into {directory}")


@log_group.command("check")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--key", "key_text", required=True, help=KEY_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def check_command(directory: str, key_text: str, as_json: bool) -> None:
    """Check the mirror DIRECTORY: its checkpoint verifies under the log's key and its tiles make that checkpoint's
    tree, every leaf included; the first file that does not hold is named."""
    from service.evidence.tile_mirror import MirrorError, check

    key = _key(key_text)
    try:
        done = check(directory, key)
    except MirrorError as e:
        _fail(e, as_json, EXIT_PROBLEM)
    _report(done, as_json, f"mirror {directory} holds")
