"""phatlog: the record format and referee for Phat, the Don family and Oh Hell."""

__version__ = "0.1.0"
