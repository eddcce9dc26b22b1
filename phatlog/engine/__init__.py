"""The game machine: the State that plays a game a move at a time, and its events."""
