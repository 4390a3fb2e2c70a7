"""Body fields the OpenAPI document declares whose values reach the command (or the service) as they came: it checks
them, once, and its refusal is the one a client gets (a move's `expected_version` and `idempotency_key`, a receipt's
fields)."""

from __future__ import annotations

from marshmallow import fields


class Declared:
    """A declared field (its type from the field class, its bounds from `metadata`, `required` for the document):
    marshmallow neither converts nor requires it; the command names a missing or wrong one."""

    def _deserialize(self, value, attr, data, **kwargs):
        return value

    def _validate_missing(self, value):
        return None


class DeclaredInteger(Declared, fields.Integer):
    pass


class DeclaredString(Declared, fields.String):
    pass
