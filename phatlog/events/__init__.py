"""Events: what a set of records says about a tournament (standings, crosstables) and its players (stats).

``record`` holds the facts of one record that a verdict gives (game, event, players, winner, totals),
``standings`` and ``stats`` turn many records into tables as data; ``phatlog.report.events`` renders them.
"""
