"""What callers read of games: views, event logs, audits, the live feed, spectator delay, the catalogue."""
