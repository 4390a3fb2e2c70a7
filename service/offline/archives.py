"""JSON Lines archives of records (`arbiter simulate --out X.jsonl`): one `arbiter.record/1` document a line.

`arbiter replay X.jsonl --json` verifies an archive like that many record files: one verdict a
game (contract §2), an invalid line's verdict naming its line.
"""

from __future__ import annotations

import itertools
from typing import Iterator

from domain.records import InvalidRecord, parse, replay

from service.tournaments.bundles import is_bundle_header, verify_bundle
from service import fast_road
from service.json_files import FileProblem, read_json_lines


def is_archive(path: str) -> bool:
    """Whether a path names a JSON Lines archive rather than one record."""
    return str(path).endswith(".jsonl")


def verify_archive(path: str) -> Iterator[dict]:
    """The verdict of every record in an archive, in order; never raises for a bad file or line. Each line is read
    within the JSON bounds (service.json_files): a line outside them is that line's invalid verdict, naming the bound."""
    try:
        entries = read_json_lines(path)
        first = next(entries, None)
    except FileProblem as e:
        yield {"status": "invalid", "error": str(e)}
        return
    if first is None:
        return
    if is_bundle_header(first[1]):  # a tournament's bundle (service/tournaments/bundles.py): its header, then its games' records
        yield from verify_bundle(first[1], list(entries))
        return
    for number, doc in itertools.chain([first], entries):
        if isinstance(doc, FileProblem):
            yield {"status": "invalid", "error": f"line {number}: {doc.reason}"}
            continue
        try:
            yield replay(parse(doc, checked=True), fast_road_allowed=fast_road.allowed()).verdict()
        except InvalidRecord as e:
            yield {"status": "invalid", "error": f"line {number}: {e}"}
