"""The replay viewer's compact positions (projections.positions): applying each version's difference to the view
before it gives that version's view exactly, whatever the two views are (random JSON values, lists that grow and
shrink, keys that come and go, a value that changes its type)."""

from __future__ import annotations

import copy
import json

import hypothesis.strategies as st
from hypothesis import given, settings

from projections.positions import LEFT_OUT, diff, expand, patch, positions

scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["", "8H", "TS", "KC", "x"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.sampled_from("abcde"), inner, max_size=4)),
                      max_leaves=20)
views = st.dictionaries(st.sampled_from(["table", "status", "clock", "winner", "chain_head", "players"]), values,
                        min_size=1)


@settings(max_examples=300, deadline=None)
@given(values, values)
def test_a_difference_applied_to_the_old_value_gives_the_new_one(old, new):
    ops = diff(old, new)
    assert patch(copy.deepcopy(old), json.loads(json.dumps(ops))) == new
    if json.dumps(old, sort_keys=True) == json.dumps(new, sort_keys=True):  # equal as JSON: false is not 0 there
        assert ops == []


@settings(max_examples=100, deadline=None)
@given(st.lists(views, min_size=1, max_size=8))
def test_expanding_the_positions_gives_every_version_s_view_without_the_fields_left_out(seq):
    doc = json.loads(json.dumps(positions(seq, first_version=1)))  # as the browser receives it
    assert doc["latest"] == len(seq) and len(doc["diffs"]) == len(seq) - 1
    assert expand(doc) == [{k: v for k, v in view.items() if k not in LEFT_OUT} for view in seq]


def test_an_unchanged_view_costs_an_empty_difference_and_a_changed_card_only_its_own_operation():
    before = {"table": {"hand": ["8H", "TS"], "deck_count": 20, "to_act": 1}, "chain_head": "a" * 64}
    after = {"table": {"hand": ["8H", "TC"], "deck_count": 19, "to_act": 1}, "chain_head": "b" * 64}
    doc = positions([before, before, after])
    assert doc["diffs"][0] == []
    assert sorted(doc["diffs"][1]) == [[["table", "deck_count"], 19], [["table", "hand", 1], "TC"]]
    assert "chain_head" not in json.dumps(doc)
