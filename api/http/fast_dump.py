"""A marshmallow schema's dump compiled once into plain functions, for the answers of the busiest routes.

`Schema.dump` walks its fields through accessors, `serialize`, `_serialize` and a nested schema per entry:
about a tenth of a move's CPU went to dumping and re-encoding its answer. `compile_dump(schema)` gives a
function with the same output as `schema.dump(obj)` for the kinds of fields arbiter's answers use (String,
Integer, Boolean, a Dict without key or value fields, Nested, List of those) and refuses, when it is built,
any schema it would not copy exactly (a data_key, an attribute, a dump_default, a dump hook, another field
class). As in marshmallow: a key the object lacks is left out, a key the schema does not declare is dropped,
None stays None, a String is `str()` of its value, an Integer `int()`, a Dict a shallow copy. Objects must be
dicts (the facade answers in dicts); anything else goes through marshmallow itself.

`json_response(dumped)` is what flask-smorest does with a dump (`jsonify`): the app's JSON provider.
tests/integration/test_fast_dump.py holds both to the same bytes over random games.
"""

from __future__ import annotations

from typing import Any, Callable

from flask import Response, current_app
from marshmallow import Schema, fields, missing

_STRING, _INTEGER, _PLAIN, _DICT, _NESTED, _NESTED_MANY, _LIST = range(7)
_DICT_ATTRIBUTES = frozenset(dir(dict))


class Unsupported(TypeError):
    """A schema whose dump this module would not reproduce exactly."""


def compile_dump(schema: Schema) -> Callable[[Any], Any]:
    """`schema.dump` as a plain function (raises Unsupported for a schema it cannot copy exactly)."""
    plan = _plan(schema)
    fallback = _one_by(schema)
    many = schema.many

    def dump(obj: Any) -> Any:
        if many:
            return None if obj is None else [_dump_one(plan, o, fallback) for o in obj]
        return _dump_one(plan, obj, fallback)

    return dump


def json_response(dumped: Any) -> Response:
    """The response flask-smorest builds from a dump (Flask's `jsonify`, the app's JSON provider)."""
    return current_app.json.response(dumped)


def _plan(schema: Schema) -> tuple:
    if any(schema._hooks.get(hook) for hook in (("pre_dump", False), ("pre_dump", True), ("post_dump", False),
                                                 ("post_dump", True))):
        raise Unsupported(f"{type(schema).__name__}: dump hooks")
    plan = []
    for name, field in schema.dump_fields.items():
        if field.data_key is not None or field.attribute is not None or field.dump_default is not missing:
            raise Unsupported(f"{type(schema).__name__}.{name}: data_key, attribute or dump_default")
        if name in _DICT_ATTRIBUTES:
            raise Unsupported(f"{type(schema).__name__}.{name}: a dict attribute's name")
        plan.append((name, *_field_plan(field, f"{type(schema).__name__}.{name}")))
    return tuple(plan)


def _field_plan(field: fields.Field, where: str) -> tuple:
    kind = type(field)
    if kind is fields.String:
        return _STRING, None
    if kind is fields.Integer and not field.as_string:
        return _INTEGER, None
    if kind is fields.Boolean:
        return _PLAIN, None
    if kind is fields.Dict and field.key_field is None and field.value_field is None:
        return _DICT, None
    if kind is fields.Nested:
        nested = field.schema
        if field.only or field.exclude:
            raise Unsupported(f"{where}: a Nested field with only/exclude")
        return (_NESTED_MANY if (nested.many or field.many) else _NESTED), (_plan(nested), _one_by(nested))
    if kind is fields.List:
        return _LIST, _field_plan(field.inner, where + "[]")
    raise Unsupported(f"{where}: {kind.__name__}")


def _one_by(schema: Schema) -> Callable[[Any], Any]:
    return lambda obj: schema.dump(obj, many=False)


def _dump_one(plan: tuple, obj: Any, fallback: Callable) -> Any:
    if type(obj) is not dict:
        return fallback(obj)
    out = {}
    for name, kind, sub in plan:
        value = obj.get(name, missing)
        if value is missing:
            continue
        out[name] = _value(kind, sub, value)
    return out


def _value(kind: int, sub: Any, value: Any) -> Any:
    if value is None:
        return None
    if kind == _STRING:
        return value.decode("utf-8") if isinstance(value, bytes) else str(value)
    if kind == _INTEGER:
        return int(value)
    if kind == _PLAIN:
        return value
    if kind == _DICT:
        return dict(value)
    if kind == _NESTED:
        return _dump_one(sub[0], value, sub[1])
    if kind == _NESTED_MANY:
        return [_dump_one(sub[0], v, sub[1]) for v in value]
    inner_kind, inner_sub = sub  # a List
    return [_value(inner_kind, inner_sub, v) for v in value]
