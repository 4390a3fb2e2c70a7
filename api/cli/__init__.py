"""The `arbiter` command line: the console entry point (with the plain replay's fast road) and each command."""
