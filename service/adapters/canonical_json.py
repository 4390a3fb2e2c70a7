"""JSON written by orjson, byte for byte what the library's transcoder and domain.audit's chain hash write with `json`.

For a value made only of dicts with text keys, lists, text, integers (64 bits), booleans and None — what
`plain` accepts — orjson writes the same bytes as `json` with `separators=(",", ":")` and
`ensure_ascii=False` (the transcoder's stored rows), and with `sort_keys=True` too (domain.audit's canonical
form); tests/unit/test_plain_rows.py holds them to it. Anything else (a float, which the two write
differently; a tuple, a datetime or a UUID, which the transcoder writes its own way) is not plain: the caller
then writes it with the library and domain.audit, as before.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

_SORTED = orjson.OPT_SORT_KEYS
_INT_RANGE = (-2**63, 2**64 - 1)
_SCALARS = frozenset({str, bool, type(None)})


def plain(value: Any) -> bool:
    """Whether `value` holds only dicts with text keys, lists, text, integers of 64 bits, booleans and None."""
    kind = value.__class__
    if kind is dict:
        for key in value:
            if key.__class__ is not str:
                return False
        value = value.values()
    elif kind is not list:
        return kind in _SCALARS or (kind is int and _INT_RANGE[0] <= value <= _INT_RANGE[1])
    for item in value:
        kind = item.__class__
        if kind in _SCALARS:
            continue
        if kind is int:
            if not _INT_RANGE[0] <= item <= _INT_RANGE[1]:
                return False
        elif kind is dict or kind is list:
            if not plain(item):
                return False
        else:
            return False
    return True


def stored(value: dict) -> bytes:
    """The bytes the transcoder writes for a plain value (insertion order, no spaces, UTF-8)."""
    return orjson.dumps(value)


def canonical_hash(fields: dict) -> str:
    """SHA-256 of a plain value's canonical JSON (sorted keys, no spaces, UTF-8): domain.audit's hash of fields
    already in their hashed form (class added, timestamp and id as text, no seed)."""
    return hashlib.sha256(orjson.dumps(fields, option=_SORTED)).hexdigest()


def chain_hash(fields: dict, kind: str) -> str:
    """domain.audit.fields_hash of a plain event's fields (timestamp and id as text; `fields` is changed as there:
    the class added, a Created event's seed removed)."""
    if kind.endswith("Created"):
        fields.pop("seed", None)
    fields["class"] = kind
    return canonical_hash(fields)
