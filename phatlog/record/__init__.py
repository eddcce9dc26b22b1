"""The record: its format (the models and the published schema), reading it (the fast decoder, and full
diagnostics where it refuses), its canonical form, and the views the engine reads it through."""
