"""The rules of the games, written once as pure functions and values: the pack, the trick, the table, each game."""
