"""Studies (issue 27 parts 3 and 5, docs/studies.md): "what if" variations from a seat's knowledge, and comments."""
