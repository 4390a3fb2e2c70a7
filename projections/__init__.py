"""Read models of games: views per seat, spectator and referee, as pure folds of events."""
