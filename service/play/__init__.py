"""Playing games: the referee's use cases on the store (Referee), the commands it takes, clocks and bot seats."""
