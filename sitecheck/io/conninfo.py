"""A PostGIS connection string as libpq reads it, and as SiteCheck shows it: without secrets.

A user writes a connection in any form libpq takes: keyword/value pairs with
quoted values and backslash escapes (``password='se\\'cr et'``), a URI with
percent-encoding (``postgresql://analyst:p%40ss@gis/county``), a ``service=``
from ``pg_service.conf``, or a password in ``PGPASSWORD`` or ``~/.pgpass``.
Masking by a pattern fails on one of those forms, so the string is parsed by
libpq's own rules (psycopg's ``conninfo_to_dict``) and shown rebuilt from what
libpq read, with every secret replaced by ``***``.

Every secret read here is also remembered for the process, so that text which
did not come from :func:`shown` (a library's error message, a traceback) can be
scrubbed of it before a user sees it (:func:`redacted`).
"""

from __future__ import annotations

import os
from typing import Any

SECRET_KEYS = ("password", "sslpassword")
"""libpq options whose values are secrets."""

SECRET_ENVIRONMENT = ("PGPASSWORD", "PGSSLPASSWORD")
"""Environment variables libpq reads secrets from."""

MASK = "***"

_SHOWN_FIRST = ("host", "hostaddr", "port", "dbname", "user", "service")
"""Options a reader looks for first; the rest follow in libpq's order."""

_PARSE_FAULTS = (
    ('missing "="', "a value holding spaces must be in single quotes"),
    ("unterminated quoted string", "a quoted value is not closed"),
    ("invalid connection option", "it names an option libpq does not know"),
    ("invalid URI", "it is not a postgresql:// URI libpq can read"),
    ("invalid percent-encoded", "it holds a percent-encoding that is not one"),
)
"""libpq's parse errors in words that quote nothing of the string: libpq's own
message quotes the text near the fault, which may be part of a password."""

_remembered: set[str] = set()


class ConnectionStringError(ValueError):
    """A connection string libpq cannot read; the message quotes nothing of it."""


def parse(conninfo: str) -> dict[str, str]:
    """The options libpq reads from a connection string or URI.

    Parameters
    ----------
    conninfo : str
        Without the ``PG:`` prefix.

    Returns
    -------
    dict of str to str
        Option to value, as libpq parsed them; the secrets among them are
        remembered for :func:`redacted`.

    Raises
    ------
    ConnectionStringError
        Worded without any of the string's text.
    """
    from psycopg import ProgrammingError
    from psycopg.conninfo import conninfo_to_dict

    try:
        options: dict[str, Any] = conninfo_to_dict(conninfo)
    except ProgrammingError as error:
        text = str(error)
        why = next((words for key, words in _PARSE_FAULTS if key in text), "libpq refused it")
        raise ConnectionStringError(f"libpq cannot read the connection string: {why}") from None
    values = {str(key): str(value) for key, value in options.items() if value is not None}
    for key in SECRET_KEYS:
        if values.get(key):
            _remembered.add(values[key])
    return values


def shown(conninfo: str) -> str:
    """A connection string as messages and the audit show it: its secrets as ``***``.

    The options libpq read, in keyword/value form (host, port, dbname and user
    first); a string libpq cannot read is not shown at all, since what it holds
    cannot be told apart.
    """
    try:
        options = parse(conninfo)
    except ConnectionStringError:
        return "(a connection string libpq cannot read; not shown)"
    order = [key for key in _SHOWN_FIRST if key in options]
    order += [key for key in options if key not in order and key not in SECRET_KEYS]
    words = [f"{key}={_quoted(options[key])}" for key in order]
    words += [f"{key}={MASK}" for key in SECRET_KEYS if key in options]
    return " ".join(words)


def _quoted(value: str) -> str:
    """A value as libpq reads it back: in single quotes, escaped, when it needs them."""
    if value and not any(c in value for c in " \t\n'\\"):
        return value
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def secrets() -> list[str]:
    """Every secret this process has read from a connection string or the environment."""
    found = set(_remembered)
    for name in SECRET_ENVIRONMENT:
        if os.environ.get(name):
            found.add(os.environ[name])
    return sorted(found, key=len, reverse=True)  # a secret inside another goes after it


def redacted(text: str) -> str:
    """Text with every known secret replaced by ``***``."""
    for secret in secrets():
        text = text.replace(secret, MASK)
    return text


class RedactingStream:
    """A text stream that writes through :func:`redacted`: what a command prints on its
    standard error (a warning, a library's message, a traceback) never shows a secret."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(redacted(text) if _remembered or _environment_secrets() else text)
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _environment_secrets() -> bool:
    return any(os.environ.get(name) for name in SECRET_ENVIRONMENT)


def shown_source(uri: str) -> str:
    """A data source string of another program (QGIS's layer source) as the audit shows it.

    A string libpq reads is shown as :func:`shown` shows it. QGIS adds options of
    its own (``table=``, ``key=``, ``srid=``) that libpq does not know, and no
    parser here knows all of them; such a string that still names a password is
    not shown at all, rather than shown with a guess at where its password ends.
    """
    try:
        parse(uri)
    except ConnectionStringError:
        words = uri.lower()
        if any(f"{key}=" in words.replace(" ", "") for key in SECRET_KEYS):
            return "(a data source holding a password; not shown)"
        return redacted(uri)
    return shown(uri)
