"""arbiter's entry points: the HTTP API (app factory) and the command line."""


def create_app(config: dict | None = None):
    """Build the Flask app (contract §3); imported lazily so the CLI starts without loading Flask."""
    from .app import create_app as build

    return build(config)


__all__ = ["create_app"]
