"""The command line: every command, the entry point, verify's fast start and the shared options.

The only layer that prints or chooses an exit code.
"""
