"""`arbiter witness` over HTTP: its own small Flask app (app.py) served by gunicorn in its own process (server.py)."""
