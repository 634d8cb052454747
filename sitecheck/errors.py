"""Errors the engine reports to users."""

from __future__ import annotations


class InputError(Exception):
    """Bad input a user can fix: the message names the layer, field or line.

    The command-line interface prints the message on one line and exits with code 2.
    """
