"""`arbiter import FILES...`: recorded games loaded into the event store in bulk (service.offline.bulk_import)."""

from __future__ import annotations

import json
import sys
import time

import click

EXIT_OK, EXIT_ILLEGAL, EXIT_INVALID = 0, 1, 2


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--database-url", envvar="ARBITER_DATABASE_URL", default=None, help="Event store URL.")
@click.option("--json", "as_json", is_flag=True, help="One JSON line a record: source, id, referee token, verdict.")
@click.option("--key-file", envvar="ARBITER_KEY_FILE", default=None, help="The signing key file (default beside the database).")
@click.option("--checkpoint-log", envvar="ARBITER_CHECKPOINT_LOG", default=None,
              help="The checkpoint log (default beside the database).")
def import_command(files: tuple[str, ...], database_url: str | None, as_json: bool, key_file: str | None,
                   checkpoint_log: str | None) -> None:
    """Load recorded games (record files, directories of them, .jsonl archives) into the store as new games.

    Each record becomes a game as `POST /records` makes it (its verdict as `arbiter replay` gives it, a new id and
    referee token, a signed checkpoint). Every record is validated first: if any is invalid nothing is imported
    (exit 2, each invalid record named). Exit 1 when a record has an illegal move (its game is stored up to it,
    with the refusal), else 0.
    """
    from service.offline.bulk_import import import_files, sources, validate
    from service.errors import ServiceError
    from service.facade import Arbiter
    from service.adapters.stores import StoreURLError

    started = time.perf_counter()
    worst, games, moves = EXIT_OK, 0, 0
    try:
        paths = sources(list(files))
        validate(paths)  # before the store is opened: an invalid record leaves no trace
        arbiter = Arbiter(database_url, key_file, checkpoint_log)
        for line in import_files(arbiter, paths, validated=True):
            games += 1
            moves += line["moves_applied"]
            if line["status"] == "illegal":
                worst = EXIT_ILLEGAL
            if as_json:
                sys.stdout.write(json.dumps(line) + "\n")
            else:
                illegal = line["illegal"]
                tail = f", move {illegal['move_index']} illegal ({illegal['rule']})" if illegal else ""
                click.echo(f"{line['source']}: game {line['id']} ({line['status']}, {line['moves_applied']} moves{tail}); "
                           f"referee token {line['referee_token']}")
    except (ServiceError, StoreURLError) as e:
        click.echo(f"arbiter import: {getattr(e, 'detail', e)}", err=True)
        sys.exit(EXIT_INVALID)
    sys.stdout.flush()
    elapsed = time.perf_counter() - started
    click.echo(f"imported {games} game(s), {moves:,} moves in {elapsed:.1f} s ({moves / elapsed if elapsed else 0:,.0f} "
               "moves/s)", err=True)
    sys.exit(worst)
