"""The `arbiter` command line as a click group: verify and narrate recorded games, export them, serve the app.

The console entry point is api/cli/main.py's `main`, which runs the plain `arbiter replay FILES [--json]` without click
(api/cli/replay.py) and hands everything else to `group` here."""

from __future__ import annotations

import json
import os
import sys

import click


from .replay import EXIT_ILLEGAL, EXIT_INVALID, EXIT_OK, EXPECTED_SUFFIX, replay_records


class _LazyGroup(click.Group):
    """A group whose commands in LAZY are imported only when run or listed: `arbiter replay` starts without rich."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(LAZY))

    def get_command(self, ctx: click.Context, name: str):
        if name in LAZY and name not in self.commands:
            import importlib

            module, attr = LAZY[name].split(":")
            self.add_command(getattr(importlib.import_module(module, __package__), attr), name)
        return super().get_command(ctx, name)


LAZY = {"backup": ".evidence:backup_command", "simulate": ".simulate:simulate_command",
        "report": ".simulate:report_command", "import": ".import_records:import_command",
        "analyse": ".analyse:analyse_command", "analyze": ".analyse:analyse_command",
        "witness": ".witness:witness_command", "proof": ".proof:proof_group", "log": ".log:log_group",
        "fairplay": ".fairplay:fairplay_command"}


FAST_ROAD_SETTING = "ARBITER_FAST_ROAD"  # service.fast_road.SETTING (the CLI's start-up imports no service module)


@click.group(cls=_LazyGroup)
@click.version_option(package_name="arbiter")
def group() -> None:
    """arbiter: a referee for card battles you can trust more than a person at the table."""


@group.command("replay")
@click.argument("records", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print verdict JSON (one line per record) instead of an account.")
@click.option("--no-fast-road", is_flag=True,
              help="Judge every move by the game's decider, as live play does (no second replay road; the same as "
                   "ARBITER_FAST_ROAD=0).")
def replay_command(records: tuple[str, ...], as_json: bool, no_fast_road: bool) -> None:
    """Verify recorded games: exit 0 all legal, 1 an illegal move, 2 an invalid record (the highest wins).

    Files ending in .expected.json (the verdicts kept beside sample records) are skipped, so that
    `arbiter replay dir/*.json` verifies the records of a directory; a `.jsonl` file is an archive of records."""
    if no_fast_road:
        os.environ[FAST_ROAD_SETTING] = "0"  # read by service.fast_road in this process and those it starts
    if all(path.endswith(EXPECTED_SUFFIX) for path in records):
        for path in records:
            click.echo(f"{path}: skipped (an expected verdict beside a record, not a record)", err=True)
        raise click.UsageError(f"no record to replay: every file given ends in {EXPECTED_SUFFIX}")
    sys.exit(replay_records(records, as_json, lambda message: click.echo(message, err=True)))


@group.command("export")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.File("w"), default="-", help="Where to write the record (default stdout).")
def export_command(record: str, output) -> None:
    """Play a record through the event-sourced game and write the game back out as a record."""
    from service.offline.records import InvalidRecord, export_file

    try:
        doc, warning = export_file(record)
    except InvalidRecord as e:
        click.echo(f"{record}: invalid record: {e}", err=True)
        sys.exit(EXIT_INVALID)
    if warning:
        click.echo(f"{record}: {warning}", err=True)
    json.dump(doc, output, indent=1)
    output.write("\n")
    output.flush()
    sys.exit(EXIT_ILLEGAL if warning else EXIT_OK)  # as replay: 1 when a move of the record is illegal


def _arbiter(database_url: str | None, key_file: str | None = None, checkpoint_log: str | None = None,
             public_key: str | None = None):
    from service.facade import Arbiter

    return Arbiter(database_url, key_file, checkpoint_log, public_key=_public_key(public_key))


def _public_key(text: str | None):
    """The public key given with --public-key (hex or a PEM file), or None; a bad one is a usage error."""
    if not text:
        return None
    from service.evidence.keys import KeyFileError, PublicKey

    try:
        return PublicKey.from_text(text)
    except KeyFileError as e:
        raise click.BadParameter(str(e), param_hint="--public-key") from None


@group.command("verify")
@click.argument("game_id", required=False)
@click.option("--all", "verify_all", is_flag=True, help="Re-verify every stored game with the current engine.")
@click.option("--head", default=None, help="A chain head you kept (checks truncation and changes up to it).")
@click.option("--length", "kept_length", type=click.IntRange(1, 2**31 - 1), default=None,
              help="The log length at which --head was published.")
@click.option("--database-url", envvar="ARBITER_DATABASE_URL", default=None, help="Event store URL.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--receipt", "receipt_file", type=click.Path(dir_okay=False), default=None,
              help="A file of receipts the server signed: does the store still hold what they say?")
@click.option("--key-file", envvar="ARBITER_KEY_FILE", default=None, help="The signing key file (default beside the database).")
@click.option("--checkpoint-log", envvar="ARBITER_CHECKPOINT_LOG", default=None,
              help="The checkpoint log file (default beside a SQLite database; in the database for PostgreSQL).")
@click.option("--public-key", envvar="ARBITER_PUBLIC_KEY", default=None,
              help="The server's public key (64 hex digits, or a PEM file) to check signatures with: no private key "
                   "file needed.")
@click.option("--create-store", is_flag=True, help="Start an empty event store when none exists at the URL.")
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Processes verifying --all  [default: one per core]")
@click.option("--witness", "witnesses", multiple=True,
              help="--all: a witness's verifier key (or a file) that must have cosigned the latest checkpoint; repeat.")
@click.option("--quorum", type=click.IntRange(0, 100), default=None,
              help="--all: how many of the --witness keys must have cosigned (default: all of them).")
@click.option("--policy", "policy_file", type=click.Path(dir_okay=False), default=None,
              help="--all: a C2SP tlog-policy file whose quorum the latest checkpoint must meet (instead of "
                   "--witness/--quorum; a log it lists must be this one).")
@click.option("--checkpoint", "kept", multiple=True, type=click.Path(dir_okay=False),
              help="--all: a checkpoint note you kept (GET /api/v1/log/checkpoint): the log must still extend it.")
def verify_command(game_id, verify_all, head, kept_length, database_url, as_json, receipt_file, key_file,
                   checkpoint_log, public_key, create_store, workers, witnesses, quorum, policy_file, kept) -> None:
    """Check stored games: rows, hash chain, latest signed checkpoint, deal, evidence, replay under the current
    engine, catalogue row; with --receipt, what the receipts say.

    Exit 0 when every game is intact, 1 when any check fails (a damaged game is reported and the others
    are still checked; a game behind its signed checkpoint, or a broken checkpoint log, fails too), 2 for an
    unknown game or a store that does not exist (unless --create-store), or a forged receipt. Provenance (a
    stacked deck, a creator's seed) is shown beside the checks and is no failure.
    """
    from service.errors import ServiceError

    if receipt_file:
        from .evidence import verify_receipts

        _existing_store(database_url, create_store)
        if verify_all:
            raise click.UsageError("--receipt checks one game's receipts: give GAME_ID, not --all")
        arbiter = _arbiter(database_url, key_file, checkpoint_log, public_key)
        try:
            sys.exit(verify_receipts(arbiter, game_id, receipt_file, as_json))
        finally:
            arbiter.close()
    if bool(game_id) == bool(verify_all):
        raise click.UsageError("give a GAME_ID or --all")
    policy = None
    if verify_all:
        from .proof import reader_policy

        policy = reader_policy(policy_file, witnesses, quorum)  # a bad policy stops before any game is read
    bulk = verify_all and head is None and kept_length is None
    if bulk:
        from .verify import start_early

        start_early(workers)  # the workers' server imports the verifier while this process opens the store
    _existing_store(database_url, create_store)
    arbiter = _arbiter(database_url, key_file, checkpoint_log, public_key)
    try:  # closed before exit: run in-process (tests, CliRunner) its connections must not outlive it
        try:
            reports = []
            if bulk:  # every core, rows read in bulk, a progress bar on a terminal (api/cli/verify.py)
                from .verify import verify_all_reports

                reports = verify_all_reports(arbiter, key_file, checkpoint_log, as_json, workers)
            ids = [] if bulk else [game_id] if game_id else arbiter.verification.game_ids()
            for gid in ids:
                report = arbiter.verification.verify(gid, head, kept_length, full=True)
                if as_json:  # one line per game as soon as it is checked
                    click.echo(json.dumps(report))
                reports.append(report)
        except ServiceError as e:
            click.echo(f"arbiter verify: {e.detail}", err=True)
            sys.exit(EXIT_INVALID)
        if not as_json:
            from .narrate import verify_table

            verify_table(reports, verify_all)
            if verify_all:
                from .evidence import checkpoint_summary

                checkpoint_summary(reports, arbiter.evidence.log_report(), log_given=checkpoint_log is not None)
        log_ok = not verify_all or arbiter.evidence.log_report()["ok"] is not False
        if verify_all:
            from .evidence import transparency_summary

            log_ok = transparency_summary(arbiter, policy, kept, as_json) and log_ok
        sys.exit(EXIT_OK if all(r["ok"] for r in reports) and log_ok else EXIT_ILLEGAL)
    finally:
        arbiter.close()


def _refuse_another_key(database_url: str, key_file: str | None) -> None:
    """Exit 2 before listening when the store pins another signing key than this host's, or pins one and this host
    has none, or its evidence schema cannot be made (docs/evidence.md, The signing key)."""
    from service.evidence.facade import signing_key_problem
    from service.evidence.pg_tables import EvidenceSetupError

    try:
        problem = signing_key_problem(database_url, key_file)
    except EvidenceSetupError as e:  # the database cannot be reached, or the evidence schema cannot be made there
        problem = str(e)
    if problem:
        click.echo(f"arbiter serve: refusing to serve: {problem}", err=True)
        sys.exit(EXIT_INVALID)


def _existing_store(database_url: str | None, create: bool) -> None:
    """Refuse (exit 2) to open a store that does not exist: verifying in the wrong directory must not create one."""
    from service.adapters.stores import DEFAULT_URL, StoreURLError, store_missing

    url = database_url or DEFAULT_URL
    try:
        missing = store_missing(url)
    except StoreURLError as e:
        raise click.BadParameter(str(e), param_hint="--database-url") from None
    if missing and not create:
        click.echo(f"arbiter verify: {missing}; give --database-url (or ARBITER_DATABASE_URL) naming the store, "
                   "or --create-store to start an empty one", err=True)
        sys.exit(EXIT_INVALID)


@group.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", envvar="PORT", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port (or $PORT); 0 takes a free one (the address is printed once bound).")
@click.option("--database-url", envvar="ARBITER_DATABASE_URL", default="sqlite:///arbiter.db", show_default=True,
              help="Event store URL: sqlite:///file.db, postgresql://user@host:port/db or memory://.")
@click.option("--workers", default=None, type=click.IntRange(1, 64),
              help="gunicorn worker processes  [default: one per core, at most 2; 1 for memory://]")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 256),
              help="Threads per worker for requests (moves, pages); live streams need none.")
@click.option("--worker-class", type=click.Choice(["uvicorn", "gthread"]), default="uvicorn", show_default=True,
              help="uvicorn: an event loop per worker, live streams as coroutines; gthread: every open stream holds "
                   "a thread (the old behaviour, for comparison).")
@click.option("--key-file", envvar="ARBITER_KEY_FILE", default=None,
              help="The signing key file (default beside the database; created on first start).")
@click.option("--checkpoint-log", envvar="ARBITER_CHECKPOINT_LOG", default=None,
              help="The signed checkpoint log file, kept apart from the store (default beside a SQLite database; a "
                   "PostgreSQL store keeps it in a table of its evidence schema, shared by every host).")
def serve_command(host: str, port: int, database_url: str, workers: int | None, threads: int, worker_class: str,
                  key_file: str | None, checkpoint_log: str | None) -> None:
    """Serve arbiter's API and pages with gunicorn (sizing: docs/service.md, "Serving")."""
    import os

    from service.adapters.stores import StoreURLError, persistence_env

    try:
        persistence_env(database_url)
    except StoreURLError as e:
        raise click.BadParameter(str(e), param_hint="--database-url") from None
    for name, value in (("ARBITER_KEY_FILE", key_file), ("ARBITER_CHECKPOINT_LOG", checkpoint_log)):
        if value:
            os.environ[name] = value  # every gunicorn worker builds its app from the environment
    _refuse_another_key(database_url, key_file)
    in_memory = database_url.startswith(("memory:", "sqlite:///:memory:"))
    if workers is None:
        workers = 1 if in_memory else max(1, min(2, os.cpu_count() or 1))
    if workers > 1 and in_memory:
        raise click.BadParameter("several workers need a shared database (a SQLite file or PostgreSQL)", param_hint="--workers")
    from api.http.server import serve

    banner = f"(store: {database_url.split('@')[-1]}, {workers} worker(s) x {threads} threads, {worker_class})"
    serve(host, port, database_url, workers, threads, worker_class, banner)

