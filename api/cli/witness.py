"""`arbiter witness`: run a C2SP tlog-witness for the logs given (docs/witness.md)."""

from __future__ import annotations

import click


@click.command("witness")
@click.option("--name", envvar="ARBITER_WITNESS_NAME", required=True,
              help="The witness's name in its cosignatures and verifier key, e.g. witness.example.org.")
@click.option("--key", "key_file", envvar="ARBITER_WITNESS_KEY", default="witness.key", show_default=True,
              type=click.Path(dir_okay=False), help="Its Ed25519 key (PEM); created, with --state, on first start.")
@click.option("--state", "state_file", envvar="ARBITER_WITNESS_STATE", default="witness.db", show_default=True,
              type=click.Path(dir_okay=False), help="What it cosigned, per log (SQLite); must stay with the key.")
@click.option("--log", "log_keys", multiple=True, metavar="VKEY",
              help="A log's verifier key <name>+<id>+<base64>; the key's name is the log's origin (repeatable).")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="A file of logs, one a line: VKEY, or ORIGIN VKEY ('#' starts a comment).")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8090, show_default=True, type=click.IntRange(0, 65535),
              help="Port; 0 takes a free one (the address is printed once bound).")
@click.option("--threads", default=4, show_default=True, type=click.IntRange(1, 64))
@click.option("--print-key", is_flag=True, help="Print the witness's verifier key (creating the key) and exit.")
def witness_command(name, key_file, state_file, log_keys, config_file, host, port, threads, print_key) -> None:
    """Cosign the checkpoints of the logs given, never two roots for one size nor a smaller tree after a bigger one
    (C2SP tlog-witness: POST /add-checkpoint)."""
    import logging

    from service.witness.key_file import WitnessKeyError
    from service.witness.logs import LogConfigError, known_logs
    from service.witness.state import WitnessStateError
    from service.witness.witness import Witness

    logging.basicConfig(format="%(message)s")
    try:
        logs = {} if print_key else known_logs(log_keys, config_file)
        if not logs and not print_key:
            raise click.UsageError("the witness knows no log: give --log VKEY (repeatable) or --config FILE")
        witness = Witness.open(key_file, name, state_file, logs)
    except (WitnessKeyError, WitnessStateError, LogConfigError) as e:
        click.echo(f"arbiter witness: {e}", err=True)
        raise SystemExit(2) from None
    if print_key:
        click.echo(witness.verifier_key)
        return
    from api.witness.app import create_witness_app
    from api.witness.server import serve

    banner = f"(witness {witness.verifier_key}; {len(logs)} log(s); state {state_file})"
    serve(lambda: create_witness_app(witness), host, port, threads, banner)
