"""Analysis of records: every card against best play, and the integrity statistics over many records."""
