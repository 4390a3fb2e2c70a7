"""The bounds every JSON document arbiter accepts must keep: integers, floats and nesting depth.

A record file, a request body or a stored row is read with `loads`, which never raises anything
but `LimitError` (a ValueError) for a document outside these bounds, naming where it is:

- integers are at most 2^53 - 1 in absolute value (I-JSON, RFC 7493: the integers every JSON
  implementation reads exactly; Python alone would read 4,300 digits and then fail);
- numbers are finite (`NaN` and `Infinity` are not JSON; a float too large becomes infinite);
- objects and arrays nest at most MAX_DEPTH levels (the deepest record is 4 levels deep;
  Python's own parser fails with RecursionError near 1,000);
- strings and keys hold no U+0000 (PostgreSQL's text and jsonb cannot store it: one player name
  holding it used to stop the catalogue) and no unpaired surrogate (I-JSON again: not Unicode);
- a string holds at most MAX_STRING characters and an object at most MAX_KEYS keys (the longest string of a
  record is a table talk line, its widest object a few dozen outcomes);
- a whole document (a file, or a line of JSON Lines) is at most MAX_DOCUMENT_BYTES: `read_document`, the one
  reader of every file a stranger can hand arbiter (service/json_files.py opens them).

`check` applies the same bounds to a document already in memory (walked without recursion). `screened` tells from
the text alone that a document surely keeps them; `read_screened` reads such a text with orjson (json.loads' answer,
a third of the time) and any other with json.loads.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - a dependency (pyproject.toml); json.loads reads everything it reads
    _orjson = None

MAX_INT = 2**53 - 1
MAX_DEPTH = 32
MAX_KEYS = 10_000
MAX_STRING = 1_000_000
MAX_DOCUMENT_BYTES = 16 * 1024 * 1024
_MAX_DIGITS = len(str(MAX_INT))


class LimitError(ValueError):
    """A JSON document outside arbiter's bounds (or not JSON): `field` is where, the message says what."""

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field or None
        self.reason = reason

    @property
    def not_json(self) -> bool:
        """Whether the text is not JSON at all (rather than JSON outside the bounds)."""
        return self.reason.startswith("not JSON")


class _OutOfRange:
    """What an out-of-range number reads as, until `check` finds it and names its place."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def reason(self) -> str:
        digits = sum(c.isdigit() for c in self.text)
        return _out_of_range(self.text if len(self.text) <= 24 else f"{self.text[:12]}... ({digits} digits)")


def _out_of_range(shown: str) -> str:
    return f"the number {shown} is out of range: integers are at most 2^53 - 1 ({MAX_INT}) in absolute value, " \
           "numbers are finite"


def _int(text: str) -> Any:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        return _OutOfRange(text)
    value = int(text)
    return value if -MAX_INT <= value <= MAX_INT else _OutOfRange(text)


def _float(text: str) -> Any:
    value = float(text)
    return value if math.isfinite(value) else _OutOfRange(text)


def _constant(text: str) -> Any:
    raise LimitError("", f"not JSON: {text} is not a JSON number")


def read_document(text: str | bytes) -> Any:
    """A whole document (a file's text, or a line of JSON Lines) read within every bound, its size included; raises
    LimitError naming the bound and where (line and column, or the path). Screened texts are read by orjson."""
    if len(text) > MAX_DOCUMENT_BYTES:
        raise LimitError("", f"too large: {len(text):,} bytes, and a document (a file, or a line of JSON Lines) is at "
                             f"most {MAX_DOCUMENT_BYTES:,} bytes ({MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB)")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            line = text.count(b"\n", 0, e.start) + 1
            raise LimitError("", f"not JSON: the text is not UTF-8 (byte {e.start}, line {line}: {e.reason})") from None
    try:
        checked, doc = read_screened(text)
    except ValueError:  # not JSON: loads says where
        checked, doc = False, None
    return doc if checked else loads(text)


def loads(text: str | bytes) -> Any:
    """Parse a JSON document within the bounds; raises LimitError (not JSON, too deep, a number out of range)."""
    try:
        doc = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:
        raise LimitError("", f"nested too deeply: objects and arrays nest at most {MAX_DEPTH} levels "
                             f"(level {MAX_DEPTH + 1} opens at {_too_deep_at(text)})") from None
    except UnicodeDecodeError:
        raise LimitError("", "not JSON: the text is not UTF-8") from None
    except json.JSONDecodeError as e:
        raise LimitError("", f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    try:
        check(doc)
    except LimitError as e:  # a parser that nests deeper than CPython 3.11's (3.13) leaves depth to check: say where
        if e.reason.startswith("nested too deeply") and "opens at" not in e.reason:
            e = LimitError(e.field or "", f"{e.reason} (level {MAX_DEPTH + 1} opens at {_too_deep_at(text)})")
        raise e from None
    return doc


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)  # a JSON string, escapes and all (unrolled: no backtracking)
_SUSPECT_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")  # U+0000, or a surrogate (paired or not)
_LONG_NUMBER = re.compile(r"\d{%d}" % (_MAX_DIGITS - 1))  # 15 digits or more: near 2^53 - 1 (16 digits) or beyond
_NOT_INTEGER = (".", "e", "E", "NaN", "Infinity")  # a fraction, an exponent, not finite (or true/false: not sure)
_BRACKET = re.compile(r"[\[\]{}]")
_DEPTH = {"[": 1, "{": 1, "]": -1, "}": -1}
_KEEP_BRACKETS = str.maketrans("", "", "0123456789,:-+ \t\n\rnul")  # what else a JSON text without strings,
# fractions, exponents and true/false holds: digits, separators, signs, white space, null


def screened(text: str) -> bool:
    """Whether the JSON text `text` surely keeps every bound, seen from the text alone (string operations and regular
    expressions, no walk of the decoded document): no U+0000 or surrogate escape, no number of 15 digits or more, no
    fraction or exponent, no NaN or Infinity, nesting within MAX_DEPTH. False means "not sure": `check` decides."""
    if "\x00" in text or _SUSPECT_ESCAPE.search(text) or len(text) > MAX_STRING:
        return False
    # the text outside strings; without a backslash every string runs from one quote to the next
    bare = _STRING.sub("", text) if "\\" in text else "".join(text.split('"')[::2])
    if any(sign in bare for sign in _NOT_INTEGER) or _LONG_NUMBER.search(bare) or bare.count(":") > MAX_KEYS:
        return False
    return _nests_within(bare)


def read_screened(text: str) -> tuple[bool, Any]:
    """(True, json.loads(text)) for a text `screened` lets through, raising what json.loads raises for one that is not
    JSON (JSONDecodeError); (False, None) for any other text, left to the caller (json.loads, or `loads`).

    A screened text is read by orjson, which answers as json.loads there: the screen lets through no number orjson
    reads otherwise (an integer of 19 digits or more, which it makes a float; a fraction or exponent; NaN, Infinity),
    no surrogate escape (json.loads keeps a lone one, orjson refuses it), no nesting beyond MAX_DEPTH; duplicate keys
    keep the last value in both, at the first key's place. Anything orjson refuses goes to json.loads, whose answer or
    error is the one given. tests/unit/test_json_screen.py holds this to json.loads on random texts."""
    if not screened(text):
        return False, None
    if _orjson is not None:
        try:
            return True, _orjson.loads(text)
        except _orjson.JSONDecodeError:
            pass
    return True, json.loads(text)


def _nests_within(bare: str) -> bool:
    """Whether the brackets of a JSON text without strings nest at most MAX_DEPTH levels."""
    nest = bare.translate(_KEEP_BRACKETS)
    if len(nest) == nest.count("[") + nest.count("]") + nest.count("{") + nest.count("}"):
        # each pass removes the empty arrays, then the empty objects: one or two levels, never more
        for _ in range(MAX_DEPTH // 2):
            if not nest:
                return True
            nest = nest.replace("[]", "").replace("{}", "")
        if not nest:
            return True
    brackets = _BRACKET.findall(bare)  # deeper than the passes tell, or something else left: count exactly
    return not brackets or max(accumulate(map(_DEPTH.__getitem__, brackets))) <= MAX_DEPTH


def _too_deep_at(text: str | bytes) -> str:
    """Where the first object or array deeper than MAX_DEPTH opens, as "line L column C" (strings skipped)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    depth, in_string, escaped, line, column = 0, False, False, 1, 0
    for ch in text:
        column += 1
        if in_string:
            escaped, in_string = (not escaped and ch == "\\"), in_string and (escaped or ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return f"line {line} column {column}"
        elif ch in "]}":
            depth -= 1
        elif ch == "\n":
            line, column = line + 1, 0
    return "the end"


_BAD_CHARACTER = re.compile("[\x00\ud800-\udfff]")


def _string_problem(text: str) -> str | None:
    if len(text) > MAX_STRING:
        return f"a string of {len(text):,} characters: strings hold at most {MAX_STRING:,}"
    bad = _BAD_CHARACTER.search(text)
    if bad is None:
        return None
    if bad.group() == "\x00":
        return "a string holds the character U+0000, which arbiter does not store"
    return "a string holds an unpaired surrogate (\\ud800-\\udfff), which is not Unicode text"


def _path(parent: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    key = str(key)
    key = key if len(key) <= 40 else key[:40] + "..."
    return f"{parent}.{key}" if parent else key


def _bad_string(text: str) -> bool:
    return ("\x00" in text) if text.isascii() else _BAD_CHARACTER.search(text) is not None


def _within(doc: Any) -> bool:
    """Whether `doc` keeps every bound: a fast walk that keeps no paths (check names the place when it does not)."""
    stack = [(doc, 0)] if type(doc) in (dict, list) else []
    if not stack:
        return _within([doc])
    while stack:
        node, depth = stack.pop()
        if depth >= MAX_DEPTH:
            return False
        if type(node) is dict:
            if len(node) > MAX_KEYS or any(type(key) is not str or _bad_string(key) or len(key) > MAX_STRING
                                           for key in node):
                return False
            node = node.values()
        for value in node:
            kind = type(value)
            if kind is str:
                if _bad_string(value) or len(value) > MAX_STRING:
                    return False
            elif kind is int:
                if not -MAX_INT <= value <= MAX_INT:
                    return False
            elif kind is dict or kind is list:
                stack.append((value, depth + 1))
            elif kind is float:
                if not math.isfinite(value):
                    return False
            elif value is not None and kind is not bool:
                return False  # an out-of-range number read by loads, or a value of another type: check decides
    return True


def check(doc: Any, where: str = "") -> None:
    """Raise LimitError naming the first place where `doc` nests too deeply or holds a number out of range."""
    if _within(doc):
        return
    stack = [(doc, where, 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                raise LimitError(path[:200], f"nested too deeply: objects and arrays nest at most {MAX_DEPTH} levels")
            if isinstance(value, dict):
                if len(value) > MAX_KEYS:
                    raise LimitError(path[:200], f"an object of {len(value):,} keys: objects hold at most {MAX_KEYS:,}")
                for key in value:
                    problem = _string_problem(key) if isinstance(key, str) else None
                    if problem:
                        raise LimitError(path[:200], f"a key: {problem}")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((v, _path(path, k), depth + 1) for k, v in reversed(list(items)))
        elif isinstance(value, _OutOfRange):
            raise LimitError(path[:200], value.reason())
        elif isinstance(value, str):
            problem = _string_problem(value)
            if problem:
                raise LimitError(path[:200], problem)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not -MAX_INT <= value <= MAX_INT:
                shown = str(value) if value.bit_length() < 80 else f"of about {int(value.bit_length() * 0.30103) + 1} digits"
                raise LimitError(path[:200], _out_of_range(shown))
        elif isinstance(value, float) and not math.isfinite(value):
            raise LimitError(path[:200], _out_of_range(repr(value)))
