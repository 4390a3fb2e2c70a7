"""JSON Lines archives of records (`arbiter simulate --out X.jsonl`): one `arbiter.record/1` document a line.

`arbiter replay X.jsonl --json` verifies an archive like that many record files: one verdict a
game (contract §2), an invalid line's verdict naming its line.
"""

from __future__ import annotations

import json
from typing import Iterator

from domain import json_limits
from domain.records import InvalidRecord, parse, replay

from service.tournaments.bundles import is_bundle_header, verify_bundle
from service import fast_road


def is_archive(path: str) -> bool:
    """Whether a path names a JSON Lines archive rather than one record."""
    return str(path).endswith(".jsonl")


def verify_archive(path: str) -> Iterator[dict]:
    """The verdict of every record in an archive, in order; never raises for a bad file or line."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except (OSError, UnicodeDecodeError) as e:
        yield {"status": "invalid", "error": f"cannot read {path}: {getattr(e, 'strerror', None) or e}"}
        return
    first = next((line for line in lines if line.strip()), "")
    try:
        header = json.loads(first)
    except json.JSONDecodeError:
        header = None
    if is_bundle_header(header):  # a tournament's bundle (service/tournaments/bundles.py): its header, then its games' records
        body = [(number, line) for number, line in enumerate(lines, 1) if line.strip()][1:]
        yield from verify_bundle(header, body)
        return
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            checked, doc = json_limits.read_screened(line)  # orjson where it answers as json.loads
            yield replay(parse(doc if checked else json.loads(line), checked=checked),
                         fast_road_allowed=fast_road.allowed()).verdict()
        except json.JSONDecodeError as e:
            yield {"status": "invalid", "error": f"line {number}: not JSON: {e}"}
        except InvalidRecord as e:
            yield {"status": "invalid", "error": f"line {number}: {e}"}
        except RecursionError:
            yield {"status": "invalid", "error": f"line {number}: not a record: nested too deeply"}
