"""The referee: a record replayed against the rules, every difference between the record and the rules
worded as a diagnostic at its place."""
