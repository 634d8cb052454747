"""Python warnings raised inside the libraries, shown as SiteCheck's own one-line warnings.

GDAL (through pyogrio and rasterio) warns about the files a user gave, which
the user should hear about: each such warning becomes one ``warning: GDAL: ...``
line. numpy and shapely warn about floating-point arithmetic ("overflow
encountered in area"); the engine checks its inputs and results for what
those notices would mean (coordinates beyond any map, non-finite areas), so
they are dropped rather than printed with a library's file path and source
line.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sitecheck.errors import one_line

ENGINE_FOLDER = Path(__file__).resolve().parents[1]
GDAL_BINDINGS = ("pyogrio", "rasterio", "fiona", "osgeo")
FLOATING_POINT_NOTICE = "encountered in"
"""How numpy words an overflow, invalid value or division by zero."""


def warning_line(message: str, category: type[Warning], filename: str) -> str | None:
    """The line a warning is shown as, or None when it is not shown."""
    text = one_line(str(message).strip())
    if issubclass(category, RuntimeWarning) and FLOATING_POINT_NOTICE in text:
        return None
    path = Path(filename)
    if ENGINE_FOLDER in path.parents:
        return f"warning: {text}"
    if any(part in GDAL_BINDINGS for part in path.parts):
        return f"warning: GDAL: {text}"
    library = next(
        (path.parts[i + 1] for i, part in enumerate(path.parts[:-1]) if part == "site-packages"),
        path.stem,
    )
    return f"warning: {library}: {text}"


@contextmanager
def warnings_as_lines() -> Iterator[None]:
    """Within the block, every warning is shown once, as :func:`warning_line` words it."""
    shown: set[str] = set()

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        text = warning_line(str(message), category, str(filename))
        if text is not None and text not in shown:
            shown.add(text)
            print(text, file=sys.stderr)

    with warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = show
        yield
