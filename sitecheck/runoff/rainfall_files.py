"""The site's 24-hour design-storm depths from the files engineers download.

Two files are read, as their publishers write them:

- NOAA Atlas 14's Precipitation Frequency Data Server (hdsc.nws.noaa.gov/pfds)
  "export CSV" of precipitation depths: a header of ``key: value`` lines (the
  first names the unit, ``Point precipitation frequency estimates (inches)``;
  then the volume and version, ``Data type``, ``Time series type`` (partial
  duration or annual maximum), the location, latitude and longitude), then
  ``PRECIPITATION FREQUENCY ESTIMATES`` and a table whose header is ``by
  duration for ARI (years):, 1,2,5,...`` (``AEP`` with ``1/2, 1/5...`` for the
  annual-maximum series) and whose rows are durations (``24-hr:, ...``). The
  confidence-bound tables that follow are not read.
- The Northeast Regional Climate Center's "Extreme Precipitation in New York &
  New England" tables (precip.eas.cornell.edu): a header of the location
  (``Longitude``, ``Latitude``), then a table with durations across
  (``1hr ... 24hr ... 10day``) and return periods down (``1yr``, ``2yr``...),
  comma- or tab-separated.

Millimetres are converted to inches; an intensity table (in/hr) is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sitecheck.errors import InputError
from sitecheck.runoff.rainfall import rising_depths

OPTION = "--rainfall-file"
MM_PER_INCH = 25.4
_CELLS = re.compile(r"\s*[,\t]\s*")
_YEARS = re.compile(r"^(\d+)\s*-?\s*(?:yr|year|years)$", re.IGNORECASE)


@dataclass(frozen=True)
class RainfallFile:
    """The 24-hour depths a downloaded file gives, and what it says of itself.

    Attributes
    ----------
    path : str
    source : str
        ``NOAA Atlas 14 Volume 10 Version 3``, or the NRCC study.
    location : str
        The file's location line(s), as written.
    series : str
        ``partial duration`` or ``annual maximum`` (``not stated`` if silent).
    depths_in : dict of int to float
        24-hour depth, inches, by return period (years).
    """

    path: str
    source: str
    location: str
    series: str
    depths_in: dict[int, float]

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "source": self.source,
            "location": self.location,
            "series": self.series,
            "depths_in": {str(years): depth for years, depth in self.depths_in.items()},
        }


def read_rainfall_file(path: str) -> RainfallFile:
    """Read a NOAA Atlas 14 PFDS CSV or an NRCC extreme-precipitation table.

    Raises
    ------
    InputError
        Naming ``--rainfall-file`` and the file, when it cannot be read, is
        neither format, holds intensities, or has no 24-hour depths.
    """
    try:
        text = Path(path).read_text(encoding="utf-8-sig", errors="replace")
    except OSError as error:
        raise InputError(f"{OPTION} {path}: cannot read: {error.strerror or error}") from error
    lines = [line.rstrip() for line in text.splitlines()]
    if any("by duration for" in line.lower() for line in lines):
        return _pfds(path, lines)
    if any(_cells(line)[:1] and _YEARS.match(_cells(line)[0]) for line in lines):
        return _nrcc(path, lines)
    raise InputError(
        f"{OPTION} {path}: neither a NOAA Atlas 14 PFDS CSV (a 'by duration for ARI (years)' "
        "table) nor an NRCC extreme-precipitation table (rows 1yr, 2yr...)"
    )


def _cells(line: str) -> list[str]:
    return [cell.strip().strip('"') for cell in _CELLS.split(line.strip(" \r\n"))]


def _header_value(lines: list[str], key: str) -> str | None:
    for line in lines:
        name, sep, value = line.partition(":")
        if sep and name.strip().lower().startswith(key):
            return value.strip().strip(",").strip()
    return None


def _pfds(path: str, lines: list[str]) -> RainfallFile:
    first = lines[0].lower() if lines else ""
    data_type = (_header_value(lines, "data type") or "").lower()
    if "intensity" in first or "intensity" in data_type:
        raise InputError(
            f"{OPTION} {path}: holds rainfall intensities (in/hr); export the precipitation "
            "DEPTH table from PFDS"
        )
    factor = 1.0 / MM_PER_INCH if "millimet" in first or "(mm)" in first else 1.0
    header_at = next(i for i, line in enumerate(lines) if "by duration for" in line.lower())
    periods = [_return_period(cell) for cell in _cells(lines[header_at].split(":", 1)[1])]
    depths: dict[int, float] = {}
    for line in lines[header_at + 1 :]:
        if not line.strip() or "by duration for" in line.lower():
            break
        label, _, values = line.partition(":")
        if label.strip().lower().replace(" ", "") in ("24-hr", "24-hour", "24hr"):
            depths = _row(path, periods, _cells(values), factor, label.strip())
            break
    if not depths:
        raise InputError(f"{OPTION} {path}: the PFDS table has no 24-hr row")
    volume = next((line.strip() for line in lines if line.startswith("NOAA Atlas 14")), "")
    place = _header_value(lines, "location name") or ""
    lat, lon = _header_value(lines, "latitude"), _header_value(lines, "longitude")
    where = ", ".join(
        part for part in (place, f"lat {lat}" if lat else "", f"lon {lon}" if lon else "") if part
    )
    series = (_header_value(lines, "time series type") or "not stated").lower()
    return RainfallFile(path, volume or "NOAA Atlas 14", where or "not stated", series, depths)


def _nrcc(path: str, lines: list[str]) -> RainfallFile:
    header_at, column = None, None
    for index, line in enumerate(lines):
        names = [cell.lower().replace(" ", "").replace("-", "") for cell in _cells(line)]
        if "24hr" in names:
            header_at, column = index, names.index("24hr")
            break
    if header_at is None or column is None:
        raise InputError(f"{OPTION} {path}: the NRCC table has no 24hr column")
    depths: dict[int, float] = {}
    for line in lines[header_at + 1 :]:
        cells = _cells(line)
        match = _YEARS.match(cells[0]) if cells and cells[0] else None
        if match is None:
            if depths:
                break  # the confidence-limit tables follow the estimates
            continue
        years = int(match[1])
        depths[years] = _depth(path, cells, column, f"{years}yr")
    if not depths:
        raise InputError(f"{OPTION} {path}: the NRCC table has no return-period rows")
    text = "\n".join(lines).lower()
    series = (
        "partial duration"
        if "partial duration" in text
        else "annual maximum"
        if "annual maximum" in text
        else "not stated"
    )
    where = "; ".join(
        " ".join(cell for cell in _cells(line) if cell)
        for line in lines[:header_at]
        if line.strip().lower().startswith(("location", "longitude", "latitude", "state"))
    )
    source = "NRCC Extreme Precipitation in New York & New England"
    return RainfallFile(path, source, where or "not stated", series, _increasing(path, depths))


def _return_period(cell: str) -> int:
    """``25`` (ARI years) or ``1/25`` (annual-maximum AEP as 1 in Y)."""
    text = cell.strip()
    if text.startswith("1/"):
        text = text[2:]
    return int(float(text)) if re.fullmatch(r"\d+(\.0+)?", text) else -1


def _row(
    path: str, periods: list[int], values: list[str], factor: float, label: str
) -> dict[int, float]:
    depths = {}
    for years, cell in zip(periods, values, strict=False):
        if years <= 0:
            continue
        try:
            depths[years] = float(cell) * factor
        except ValueError:
            raise InputError(f"{OPTION} {path}: {label} '{cell}' is not a depth") from None
    return _increasing(path, depths)


def _depth(path: str, cells: list[str], column: int, label: str) -> float:
    try:
        return float(cells[column])
    except (IndexError, ValueError):
        raise InputError(f"{OPTION} {path}: {label} has no 24hr depth") from None


def _increasing(path: str, depths: dict[int, float]) -> dict[int, float]:
    for years, depth in depths.items():
        if not depth > 0:
            raise InputError(f"{OPTION} {path}: the {years}-year depth {depth:g} is not positive")
    return rising_depths(depths, f"{OPTION} {path}")
