"""The reference rules engine: shared trick mechanics, one rules module per game, and the referee."""
