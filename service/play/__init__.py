"""Playing games: the event-sourced application (Referee), the commands it takes, clocks and bot seats."""
