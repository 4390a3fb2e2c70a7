"""The HTTP API (contract §3) and its serving: routes, schemas, problems, limits, streams, ASGI, gunicorn."""
