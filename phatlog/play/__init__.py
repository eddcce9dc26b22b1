"""Playing games on the State: a new game (``start``, its rules checked as the referee checks them),
seeded random games (``simulate``), and stepping through a record action by action (``states``)."""
