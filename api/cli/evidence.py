"""The command line's evidence parts: receipts checked against the store, the checkpoint summary of
`arbiter verify --all`, and `arbiter backup`."""

from __future__ import annotations

import json
import os
import shlex
import sys

import click
from rich.console import Console
from rich.text import Text

EXIT_OK, EXIT_PROBLEM, EXIT_INVALID = 0, 1, 2


def read_receipts(path: str) -> list:
    """The receipts of a file: one JSON object, a JSON array of them (a seat page's download) or JSON lines, each read
    within the JSON bounds (service.json_files); a file that is none of them is a usage error naming it and why."""
    from service.json_files import FileProblem, parse, read_bytes

    try:
        data = read_bytes(path)
        doc = parse(path, data)
        docs = doc if isinstance(doc, list) else [doc]
    except FileProblem as whole:
        if whole.line is None and ("not JSON" not in whole.reason or "not UTF-8" in whole.reason):
            raise click.UsageError(str(whole)) from None  # unreadable, too large, out of bounds, not UTF-8
        try:
            docs = [parse(path, line, n) for n, line in enumerate(data.split(b"\n"), 1) if line.strip()]
        except FileProblem as e:
            raise click.UsageError(f"{e} (a receipt file is a JSON object, a JSON array or JSON lines)") from None
    if not docs:
        raise click.UsageError(f"{path}: holds no receipt")
    return docs


def is_promise(doc) -> bool:
    """Whether a document of a receipt file is a refusal's answer (or any object) holding only a promise, no receipt."""
    return isinstance(doc, dict) and "promise" in doc and "format" not in doc


def verify_receipts(arbiter, game_id: str | None, path: str, as_json: bool) -> int:
    """Check each receipt of a file against the store, and each promise (a receipt's, or a refusal's answer kept
    whole) against the published log; returns the exit code (0 intact, 1 the store differs or the log broke a
    promise, 2 a receipt is malformed, forged or of another game)."""
    from service.errors import ServiceError

    worst = EXIT_OK
    for n, doc in enumerate(read_receipts(path), start=1):
        where = f"receipt {n}" + (f" (version {doc['version']})" if isinstance(doc, dict) and "version" in doc else "")
        if is_promise(doc):
            where = f"promise {n}" + (f" (refused attempt {doc['attempt']})" if isinstance(doc.get("attempt"), int) else "")
        if game_id and isinstance(doc, dict) and not is_promise(doc) and str(doc.get("game")) != str(game_id):
            result = {"ok": False, "status": "invalid", "detail": f"it is a receipt of game {doc.get('game')}, not {game_id}"}
        else:
            try:
                if is_promise(doc):
                    result = arbiter.evidence.keep_promise(doc["promise"], str(game_id) if game_id else None)
                    result["ok"] = result["status"] != "broken"
                else:
                    result = arbiter.evidence.verify_receipt(doc)
            except ServiceError as e:
                status = "forged" if e.title.startswith("Forged") else "invalid"
                result = {"ok": False, "status": status, "detail": e.detail}
        code = EXIT_OK if result["ok"] else (EXIT_INVALID if result["status"] in ("forged", "invalid") else EXIT_PROBLEM)
        worst = max(worst, code)
        if as_json:
            click.echo(json.dumps({"receipt": n, **{k: v for k, v in result.items() if k != "chain"}}))
        else:
            click.echo(f"{where}: {result['detail']}", err=not result["ok"])
    return worst


def checkpoint_summary(reports: list[dict], log: dict, console: Console | None = None, log_given: bool = False) -> None:
    """After `verify --all`'s table: the checkpoint log's own check, and a rollback named as such.

    `log_given`: the log's path was given (--checkpoint-log, ARBITER_CHECKPOINT_LOG), not the default beside the store."""
    if console is None:
        from .narrate import report_console

        console = report_console()
    if not log["exists"]:
        console.print(Text(missing_log(log["path"], len(reports), log_given), style="yellow"), soft_wrap=True)
    elif log["ok"]:
        console.print(Text(f"checkpoint log: ok ({log['lines']} signed checkpoints, {log['path']})", style="green"))
    else:
        console.print(Text(f"checkpoint log {log['path']}: BROKEN at {log['problem']}", style="bold red"), soft_wrap=True)
        gone_lines(reports, log, console)
    lost = [r for r in reports if (r.get("checkpoint") or {}).get("finding") in ("truncated", "deleted")]
    if lost:
        console.print(Text(f"the store is behind the checkpoint log: {len(lost)} game(s) lost signed versions "
                           "(a truncation, a deleted game, or an older copy of the database put back):", style="bold red"))
        for r in lost:
            cp = r["checkpoint"]
            have = r["chain"]["length"] if cp["finding"] == "truncated" else 0
            if "attempts" in cp:  # its events match: its refused attempts do not
                lost_attempts = cp["attempts"]
                console.print(Text(f"  {r['id']}: store holds {lost_attempts['stored']} refused attempt(s), signed "
                                   f"{lost_attempts['signed']} at {cp['checkpoint']['at']} ({cp['finding']})",
                                   style="red"), soft_wrap=True)
                continue
            console.print(Text(f"  {r['id']}: store at version {have}, signed version {cp['checkpoint']['version']} "
                               f"at {cp['checkpoint']['at']} ({cp['finding']})", style="red"), soft_wrap=True)
    uncovered_summary(reports, console)


def uncovered_summary(reports: list[dict], console: Console) -> None:
    """Each game's newest stored thing that no published checkpoint covers, and how long ago it was acknowledged;
    red past the maximum merge delay (the log broke the promise handed out with it)."""
    late = [(r["id"], r["checkpoint"]["uncovered"]) for r in reports if (r.get("checkpoint") or {}).get("uncovered")]
    if not late:
        return
    mmd = late[0][1]["mmd"]
    broken = [g for g, u in late if u["past_mmd"]]
    console.print(Text(f"not yet in a published checkpoint: {len(late)} game(s)"
                       + (f", {len(broken)} past the maximum merge delay of {mmd:g} s (the log broke its promise)"
                          if broken else f" (within the maximum merge delay of {mmd:g} s)") + ":",
                       style="bold red" if broken else "yellow"), soft_wrap=True)
    for gid, u in late:
        ago = "at an unknown time" if u["seconds_ago"] is None else f"{u['seconds_ago']:.1f} s ago"
        text = f"  {gid}: {u['newest']} acknowledged {ago}"
        if u["oldest"] != u["newest"]:
            text += f" (uncovered since {u['oldest']}, {u['oldest_seconds_ago'] or 0:.1f} s ago)"
        console.print(Text(text + (": past the MMD" if u["past_mmd"] else ""), style="red" if u["past_mmd"] else "yellow"),
                      soft_wrap=True)


def gone_lines(reports: list[dict], log: dict, console: Console) -> None:
    """Under a broken log: each run of lines that is gone, the game and version the line after it names, the games
    whose rows say they lost lines, and whether the lines after them were still read."""
    from service.evidence.lost_lines import lines_text

    for g in log.get("gone") or []:
        text = f"  {lines_text(g)}: gone"
        if g["game"] is not None:
            text += f"; line {g['last']} signed game {g['game']} at version {g['version']} (line {g['named_by']} says)"
        if g["why"] == "cut":
            text += f"; the checkpoint published at {g.get('published_at')} signed them"
        console.print(Text(text, style="red"), soft_wrap=True)
    if log.get("stopped"):
        console.print(Text("  the lines after it are out of order: they were not used, and every game's check fails",
                           style="red"), soft_wrap=True)
    elif log.get("gone"):
        lost = [r["id"] for r in reports if (r.get("checkpoint") or {}).get("lost")]
        after = any(g["why"] != "cut" for g in log["gone"])
        console.print(Text(("  the lines after them were still checked; " if after else "  ")
                           + f"{len(lost)} game(s) lost lines: " + (", ".join(lost) or "none named"), style="red"),
                      soft_wrap=True)


def transparency_summary(arbiter, policy, kept: tuple[str, ...], as_json: bool) -> bool:
    """After `verify --all`: the transparency log's published checkpoints held against the stored lines
    (service.evidence.log_audit), the latest against the reader's witness `policy` (api.cli.proof.reader_policy);
    False on any finding (each printed, red; on stderr with --json)."""
    try:
        notes = []
        for path in kept:
            with open(path, encoding="utf-8") as f:
                notes.append((path, f.read(1 << 20)))
    except (OSError, UnicodeDecodeError) as e:
        raise click.UsageError(str(e)) from None
    done = arbiter.evidence.transparency.audit(notes, policy)
    if as_json:
        for finding in done["findings"]:
            click.echo(f"transparency log: {finding}", err=True)
        return done["ok"] is not False
    console = Console()
    if done["ok"] is None:
        console.print(Text(f"transparency log: {'; '.join(done['notes'])} ({done['where']})", style="yellow"),
                      soft_wrap=True)
    elif done["ok"]:
        console.print(Text(f"transparency log: ok ({done['published']} published checkpoint(s), the latest of "
                           f"{done['latest']} of {done['leaves']} leaves, each signed and a prefix of the stored lines"
                           + "".join(f"; {n}" for n in done["notes"]) + ")", style="green"), soft_wrap=True)
    for finding in done["findings"]:
        console.print(Text(f"transparency log: {finding}", style="bold red"), soft_wrap=True)
    return done["ok"] is not False


def missing_log(path: str, games: int, given: bool) -> str:
    """What `verify --all` says of a checkpoint log that does not exist: with no game, that nothing was checkpointed;
    with games, that they were not held against signed checkpoints, and, for the default path, the likely reason (a
    copy of the store, whose log stayed beside the original) and how to check the copy against that log."""
    if not games:
        return f"checkpoint log: none at {path} (no game was checkpointed by this server)"
    if given:
        return (f"checkpoint log: none at {path} (no such file, as given): the {games} game(s) of this store were "
                "not held against signed checkpoints")
    if path.startswith("table "):  # a PostgreSQL store's log (service.evidence.pg_tables.TableStorage)
        return (f"checkpoint log: none in the database ({path}): its {games} game(s) were not held against signed "
                "checkpoints. A copy restored from pg_dump --schema has no evidence schema, on purpose: check it "
                "against the live log written out to a file, --checkpoint-log FILE --public-key KEY "
                "(docs/evidence.md, Backups)")
    return (f"checkpoint log: none beside this store ({path}): its {games} game(s) were not held against signed "
            "checkpoints. A copy made by `arbiter backup` leaves the log (and the signing key) beside the original "
            "store: check the copy against them with --checkpoint-log ORIGINAL.checkpoints.jsonl --key-file "
            "ORIGINAL.key (docs/evidence.md, Backups)")


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--database-url", envvar="ARBITER_DATABASE_URL", default=None, help="Event store URL (a SQLite file).")
@click.option("--force", is_flag=True, help="Replace PATH if it exists.")
def backup_command(path: str, database_url: str | None, force: bool) -> None:
    """Copy the event store to PATH while it is in use, creating PATH's missing directories (SQLite; PostgreSQL:
    pg_dump, see docs/evidence.md)."""
    from service.adapters.backup import source
    from service.errors import ServiceError
    from service.facade import Arbiter
    from service.adapters.stores import DEFAULT_URL, StoreURLError

    try:
        source(database_url or DEFAULT_URL)  # refused before the facade opens the store: a backup never creates one
        done = Arbiter(database_url).evidence.backup(path, force)
    except (ServiceError, StoreURLError) as e:
        click.echo(f"arbiter backup: {getattr(e, 'detail', e)}", err=True)
        sys.exit(EXIT_INVALID)
    for directory in done["created"]:
        click.echo(f"created the directory {directory} (it did not exist)")
    log = done["checkpoint_log"]
    click.echo(f"backed up {done['games']} game(s), {done['events']} events ({done['bytes']} bytes) to {done['path']}; "
               f"the checkpoint log then held {log['lines']} checkpoints (keep it apart: it tells a restored copy "
               "that is older from the truth)")
    if log["exists"] and done.get("key_file"):  # the log and the key stay where they are: say how to check the copy
        shown = lambda p: shlex.quote(os.path.abspath(p))  # noqa: E731 - a path to paste, from any directory
        click.echo(f"check the copy against the log and key kept beside the store: arbiter verify --all "
                   f"--database-url {shlex.quote('sqlite:///' + os.path.abspath(done['path']))} "
                   f"--checkpoint-log {shown(log['path'])} --key-file {shown(done['key_file'])}")
