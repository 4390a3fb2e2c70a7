"""One signing key for every host of a store: the private key stays a file given to each host, and a PostgreSQL store
pins its public half (service.evidence.pg_tables), so that a host started with another key, or with none where the
store already has one, refuses to serve and says which key the store expects (docs/evidence.md, "The signing key").
"""

from __future__ import annotations

from pathlib import Path

from . import keys


class KeyMismatch(keys.KeyFileError):
    """This host's signing key is not the one the store pinned (or it has none where the store pinned one)."""


def _advice(pinned_id: str) -> str:
    return (f"give this host the key file of key id {pinned_id} (--key-file or ARBITER_KEY_FILE), the same file "
            "as every other host of this store (docs/evidence.md, The signing key)")


def load_pinned(key_file: Path, tables) -> keys.ServerKey:
    """The key in `key_file`, checked against (or, on a store where none is pinned yet, pinned as) the store's key;
    the file is created only while nothing is pinned. Raises KeyMismatch naming both key ids and what to do."""
    pinned = tables.pinned() if tables is not None else None
    if pinned is not None and not key_file.exists():
        raise KeyMismatch(f"no signing key file at {key_file}, and the store pins key id {pinned[0]} "
                          f"({tables.schema}.signing_key): a host never makes a new key for a store that has one; "
                          + _advice(pinned[0]))
    key = keys.load_or_create(key_file)[0]
    if tables is not None:
        pinned = pinned or tables.pin(key.id, key.raw.hex())
        if pinned[0] != key.id or pinned[1] != key.raw.hex():
            raise KeyMismatch(f"this host's signing key {key_file} has key id {key.id}, but the store pins key id "
                              f"{pinned[0]} ({tables.schema}.signing_key): refusing to sign with another key; "
                              + _advice(pinned[0]))
    return key


def serving_problem(env: dict[str, str], key_file: Path) -> str | None:
    """Why a host may not serve the PostgreSQL store of `env` with `key_file`, or None: its evidence tables are made if
    missing (raises pg_tables.EvidenceSetupError where they cannot be); no key is created or pinned."""
    from .pg_tables import EvidenceTables

    tables = EvidenceTables(env)
    try:
        tables.make()
        return key_problem(key_file, tables)
    finally:
        tables.close()


def key_problem(key_file: Path | None, tables) -> str | None:
    """Why this host may not sign for the store (another key than the pinned one, or no key file where one is pinned),
    or None; nothing is created or pinned (what `arbiter serve` asks before it listens)."""
    if key_file is None or tables is None:
        return None
    pinned = tables.pinned()
    if pinned is None:
        return None
    if not key_file.exists():
        return (f"no signing key file at {key_file}, and the store pins key id {pinned[0]}: a host never makes a new "
                "key for a store that has one; " + _advice(pinned[0]))
    try:
        key = keys.load(key_file)
    except keys.KeyFileError as e:
        return str(e)
    if key.id != pinned[0] or key.raw.hex() != pinned[1]:
        return (f"this host's signing key {key_file} has key id {key.id}, but the store pins key id {pinned[0]}; "
                + _advice(pinned[0]))
    return None
