"""json_limits.screened: a JSON text it passes keeps every bound `check` enforces (so `replay` may skip the walk);
each kind of text outside the bounds is not passed."""

from __future__ import annotations

import json
import re
from itertools import accumulate

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain import json_limits

values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**60, max_value=2**60) | st.text(max_size=8)
    | st.floats(allow_nan=True, allow_infinity=True),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=40)


def deep(levels: int):
    doc = 1
    for _ in range(levels):
        doc = [doc]
    return doc


@given(values)
def test_a_text_that_passes_the_screen_keeps_every_bound(doc):
    text = json.dumps(doc)
    if json_limits.screened(text):
        json_limits.check(json.loads(text))  # raises LimitError if the screen let a bad document through


@pytest.mark.parametrize("doc", [{"n": 2**53}, {"n": 1.5}, {"n": 1e400}, {"t": "a\x00b"}, {"t": "\ud800"},
                                 deep(json_limits.MAX_DEPTH + 1)])
def test_a_text_outside_the_bounds_does_not_pass_the_screen(doc):
    assert not json_limits.screened(json.dumps(doc))


def test_nan_and_infinity_do_not_pass_the_screen():
    assert not json_limits.screened('{"a": NaN}') and not json_limits.screened('[Infinity]')


def test_a_record_passes_the_screen_with_its_strings_holding_anything_else():
    record = {"format": "arbiter.record/1", "players": [{"name": 'e.E "quoted" [{ NaN 12345678901234567'}],
              "moves": [{"seat": 0, "type": "say", "text": "]]]]"}], "depth": deep(json_limits.MAX_DEPTH - 1)}
    assert json_limits.screened(json.dumps(record))


# The screen as it was first written (one regular expression each): the string-operation screen must answer alike.
_OLD_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_OLD_NUMBER = re.compile(r"\d{15,}|[.eE]|NaN|Infinity")


def _old_screened(text: str) -> bool:
    if "\x00" in text or json_limits._SUSPECT_ESCAPE.search(text):
        return False
    bare = _OLD_STRING.sub("", text)
    if _OLD_NUMBER.search(bare):
        return False
    brackets = json_limits._BRACKET.findall(bare)
    return not brackets or max(accumulate(map(json_limits._DEPTH.__getitem__, brackets))) <= json_limits.MAX_DEPTH


nested = st.recursive(values, lambda inner: st.lists(inner, min_size=1, max_size=2)
                      | st.dictionaries(st.text(max_size=3), inner, min_size=1, max_size=2), max_leaves=60)


@given(nested, st.booleans(), st.sampled_from([None, 1]), st.integers(min_value=0, max_value=40))
def test_the_screen_answers_as_the_regular_expressions_did(doc, ascii_only, indent, depth):
    text = json.dumps(deep(depth) if depth > 25 else doc, ensure_ascii=ascii_only, indent=indent)
    assert json_limits.screened(text) == _old_screened(text)


@pytest.mark.parametrize("levels", range(json_limits.MAX_DEPTH - 3, json_limits.MAX_DEPTH + 3))
@pytest.mark.parametrize("shape", ["[", "{", "mixed"])
def test_the_screen_counts_the_depth_exactly(levels, shape):
    doc: object = 1
    for i in range(levels - 1):
        kind = shape if shape != "mixed" else "[{"[i % 2]
        doc = [doc] if kind == "[" else {"k": doc}
    doc = {"moves": [doc]}
    text = json.dumps(doc)
    assert json_limits.screened(text) == (levels + 1 <= json_limits.MAX_DEPTH) == _old_screened(text)


# read_screened: orjson for a screened text must answer (or fail) exactly as json.loads does.
def _answer(read, text):
    try:
        return "ok", repr(read(text))  # repr: the same values of the same types, dict keys in the same order
    except RecursionError:
        return "error", "RecursionError"
    except json.JSONDecodeError as e:
        return "error", f"JSONDecodeError {e}"


big = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6) | st.floats(allow_nan=True, allow_infinity=True),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=30)
JSONISH = st.text(alphabet='{}[]":,0123456789-+.eE \n\\u\x00\x01tfalsenNIy\ud800\udc00\xe9\ufeffabcd', max_size=30)


@st.composite
def json_texts(draw):
    """A JSON text (big integers, floats, NaN, duplicate keys, escapes, depth) or a near miss of one."""
    doc = draw(big)
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 1])))
    if draw(st.booleans()):  # a duplicate key, a number written otherwise, a lone surrogate escape, a deep nest
        extra = draw(st.sampled_from(['{"a": 1, "b": [2], "a": 3}', "-0", "123456789012345678901234567890", "1E2",
                                      '"\\ud800"', '"\\u0000"', "9223372036854775808", "-9223372036854775809",
                                      "[" * 40 + "]" * 40, "\ufeff[1]", "[1,]", "18446744073709551616"]))
        text = f"[{text}, {extra}]" if draw(st.booleans()) else extra
    if draw(st.booleans()):  # a near miss: a character removed or put in
        cut = draw(st.integers(min_value=0, max_value=len(text)))
        text = text[:cut] + draw(JSONISH) + text[cut + draw(st.integers(min_value=0, max_value=1)):]
    return text


def _read(text):
    checked, doc = json_limits.read_screened(text)
    assert checked == json_limits.screened(text)
    return doc if checked else json.loads(text)


@given(json_texts() | JSONISH)
def test_read_screened_answers_as_json_loads(text):
    assert _answer(_read, text) == _answer(json.loads, text)


def test_read_screened_leaves_an_unscreened_text_unread():
    assert json_limits.read_screened('[1.5, {"a": NaN}]') == (False, None)
    assert json_limits.read_screened('{"a": [1, {"b": "c"}], "a": 2}') == (True, {"a": 2})
