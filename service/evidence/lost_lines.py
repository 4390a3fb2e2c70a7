"""Which games lost lines of the checkpoint log, and how each game's row says it (`arbiter verify`).

The log's check (service.evidence.log_check) lists the runs of lines that are gone: deleted, altered, or cut from the
end (fewer lines than the newest published checkpoint signed: `with_cut`). A gone line that the line after it names
(format 3: the game and version it signed) is that game's: its row names the line, and fails. A gone line that
nothing names (the last lines of the log cut, a run of several lines gone of which only the last is named, a line of
an older format) may have held any game whose store goes past the lines left of it: each such game's row names the
lines and the versions no line left signs, and fails. A game whose stored state is signed by a line still in the log
lost nothing a gone line could have held, and keeps its verdict (unless the check stopped: lines moved or inserted).
"""

from __future__ import annotations

from dataclasses import replace


def with_cut(report, published: tuple[int, str] | None):
    """The log's report with the lines the newest published checkpoint (size, when) signed and the log no longer
    holds counted as gone ("cut"); the report itself when none are."""
    if published is None or published[0] <= report.lines or report.stopped:
        return report
    size, at = published
    first = report.lines + 1
    which = f"line {first} is" if first == size else f"lines {first} to {size} are"
    problem = (f"line {first}: {which} gone: the checkpoint published at {at} signed {size} lines, the log holds "
               f"{report.lines} (the log was cut or rolled back)")
    cut = {"first": first, "last": size, "why": "cut", "game": None, "version": None, "leaf": None, "named_by": None,
           "published_at": at}
    return replace(report, ok=False, gone=[*report.gone, cut], broken_at=report.broken_at or first,
                   problem=report.problem or problem)


def lines_text(g: dict) -> str:
    """'line 44 (deleted)', 'lines 36 to 40 (cut)'."""
    which = f"line {g['first']}" if g["first"] == g["last"] else f"lines {g['first']} to {g['last']}"
    return f"{which} ({g['why']})"


def named_games(report) -> list[str]:
    """The games the gone lines are named for, in the log's order."""
    return list(dict.fromkeys(g["game"] for g in report.gone if g["game"] is not None))


def lost(report, game: str, cp: dict | None, length: int | None) -> list[str]:
    """What the gone lines took of one game, in plain words (empty: nothing): `cp` its latest line left, `length` the
    versions its store holds (None: none)."""
    out = []
    for g in report.gone:
        if g["game"] == game:
            text = (f"line {g['last']} of the checkpoint log, which signed its version {g['version']}, is gone "
                    f"({g['why']}; line {g['named_by']} names it)")
            if length is not None and length < g["version"]:
                text += f", and the store ends at version {length}: versions {length + 1} to {g['version']} are gone too"
            out.append(text)
    unnamed = [g for g in report.gone if g["game"] is None or g["first"] < g["last"]]
    if length is None or not unnamed:
        return out
    signed = cp["version"] if cp is not None else 0
    after = [g for g in unnamed if cp is None or cp["seq"] < g["last"]]
    if after and length > signed and not any(g["game"] == game and g["version"] >= length for g in report.gone):
        where = ", ".join(lines_text(g) for g in after)
        versions = f"version {length}" if signed + 1 == length else f"versions {signed + 1} to {length}"
        left = f"no line left signs its {versions}" if cp is not None else "no line of this game is left in the log"
        out.append(f"{left}, and the checkpoint log lost {where}, which nothing left names: its line(s) may have "
                   "been among them")
    return out


def verdict(report, game: str, cp: dict | None, chain: dict | None, ok, finding: str, status: str) -> dict:
    """A game's checkpoint verdict ({ok, finding, status}, and `lost` in words) once the log's gone lines are weighed:
    a game they took fails, finding `lost` where nothing else was found; a log whose check stopped (lines moved or
    inserted) fails every game, what follows the break being untrusted."""
    gone = [] if report.stopped else lost(report, game, cp, chain and chain["length"])
    if gone:
        status = "; ".join(gone) + ("; the store holds no event of this game either" if cp is None and chain is None
                                    else f"; its latest line left: {status}" if cp is not None else f"; {status}")
        return {"ok": False, "finding": "lost" if finding in ("intact", "none") else finding, "status": status,
                "lost": gone}
    if not report.ok and (report.stopped or not report.gone):
        return {"ok": False, "finding": finding, "status": f"{status}; the checkpoint log is broken at {report.problem}"}
    return {"ok": ok, "finding": finding, "status": status}
