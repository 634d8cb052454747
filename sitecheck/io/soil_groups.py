"""Hydrologic soil groups of SSURGO / gSSURGO map units, joined on MUKEY.

Map-unit polygons as downloaded (``soilmu_a_<area>.shp``, gSSURGO's
``MUPOLYGON``) carry only ``MUKEY``; the group is in the tables: the map unit
aggregate ``muaggatt.hydgrpdcd`` (the dominant condition), else the
components' ``component.hydgrp`` weighted by ``comppct_r`` (the dominant
major component's). The tables are read from ``--soil-table``, else from the
same source (a gSSURGO File Geodatabase or a GeoPackage holding them), else
from the SSURGO download's ``tabular/`` folder beside ``spatial/``, whose
``muaggatt.txt`` is pipe-delimited without a header (SSURGO 2.x layout).
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pyogrio

from sitecheck.errors import InputError, OptionError
from sitecheck.io.readers import LayerSource

MUAGGATT_COLUMNS = 40
"""Fields of a SSURGO 2.x ``muaggatt.txt`` row: ``muname`` the 2nd, ``hydgrpdcd`` the 18th,
``mukey`` the last (SSURGO Metadata, Table Column Descriptions, muaggatt)."""
MUNAME_AT, HYDGRPDCD_AT, MUKEY_AT = 1, 17, 39


@dataclass(frozen=True)
class GroupTable:
    """Each map unit's group ('' where the survey gives none) and where it came from."""

    group_of: dict[str, str]
    origin: str  # e.g. "muaggatt.hydgrpdcd (gSSURGO_NY.gdb:muaggatt)"
    name_of: dict[str, str] = field(default_factory=dict)  # muaggatt.muname, else compname


def mukey_field(columns: list[str]) -> str | None:
    """The map-unit key field of a soils layer, if it has one."""
    for column in columns:
        if column.lower() in ("mukey", "muaggatt_mukey"):
            return column
    return None


def group_table(soils: LayerSource, soil_table: str | None) -> GroupTable:
    """The group of every map unit, from the first place that has the tables.

    Raises
    ------
    InputError
        When no table is found, naming where it was looked for.
    """
    if soil_table:
        return _from_given(soil_table)
    layers = _layers(soils.path)
    for name in ("muaggatt", "component"):
        if name in layers:
            return _from_table(soils.path, layers[name], name)
    tabular = Path(soils.path).resolve().parent.parent / "tabular" / "muaggatt.txt"
    if tabular.exists():
        return _from_ssurgo_text(tabular)
    raise InputError(
        f"{soils.label()}: map units carry MUKEY but no soil group; give the table with "
        f"--soil-table (muaggatt or component, from gSSURGO or the SSURGO 'tabular' folder; "
        f"looked in {soils.path} and {tabular.parent})"
    )


def _layers(path: str) -> dict[str, str]:
    try:
        return {str(name).lower(): str(name) for name, _ in pyogrio.list_layers(path)}
    except Exception:
        return {}


def _from_given(spec: str) -> GroupTable:
    path, layer = spec, None
    if not os.path.exists(spec) and ":" in spec:
        path, layer = spec.rsplit(":", 1)
    if not os.path.exists(path):
        raise OptionError("soil_table", f"no such file: {spec}")
    if path.lower().endswith(".txt"):
        return _from_ssurgo_text(Path(path))
    if layer is None:
        layers = _layers(path)
        layer = layers.get("muaggatt") or layers.get("component")
    kind = "component" if layer and layer.lower() == "component" else "muaggatt"
    return _from_table(path, layer, kind, flag="--soil-table")


def _from_table(path: str, layer: str | None, kind: str, flag: str = "soils") -> GroupTable:
    where = f"{path}:{layer}" if layer else path
    try:
        table = pyogrio.read_dataframe(path, layer=layer, read_geometry=False)
    except Exception as error:
        raise InputError(f"{flag}: cannot read {where}: {error}") from error
    lowered = {str(c).lower(): str(c) for c in table.columns}
    mukey = lowered.get("mukey")
    if mukey and "hydgrpdcd" in lowered:
        groups = table[lowered["hydgrpdcd"]]
        names = (
            _mapping(table[mukey], table[lowered["muname"]], upper=False)
            if "muname" in lowered
            else {}
        )
        return GroupTable(_mapping(table[mukey], groups), f"muaggatt.hydgrpdcd ({where})", names)
    needed = ("mukey", "hydgrp", "comppct_r")
    if all(name in lowered for name in needed):
        groups, names = _dominant_component(table, lowered)
        return GroupTable(groups, f"component.hydgrp ({where})", names)
    raise InputError(
        f"{flag}: {where} has neither muaggatt's mukey and hydgrpdcd nor component's "
        f"mukey, hydgrp and comppct_r; fields are: {', '.join(map(str, table.columns))}"
    )


def _dominant_component(
    table: pd.DataFrame, lowered: dict[str, str]
) -> tuple[dict[str, str], dict[str, str]]:
    """Per map unit, the group and the name of its largest major component (of any, if none
    is major)."""
    frame = pd.DataFrame(
        {
            "mukey": table[lowered["mukey"]].astype("string").str.strip(),
            "hydgrp": table[lowered["hydgrp"]].astype("string").fillna("").str.strip(),
            "name": table[lowered["compname"]].astype("string").fillna("").str.strip()
            if "compname" in lowered
            else "",
            "share": pd.to_numeric(table[lowered["comppct_r"]], errors="coerce").fillna(0),
            "major": table[lowered["majcompflag"]].astype("string").str.upper().eq("YES")
            if "majcompflag" in lowered
            else True,
        }
    )
    frame = frame.sort_values(["mukey", "major", "share"], ascending=[True, False, False])
    first = frame.drop_duplicates("mukey", keep="first")
    names = {key: name for key, name in zip(first["mukey"], first["name"], strict=True) if name}
    return dict(zip(first["mukey"], first["hydgrp"].str.upper(), strict=True)), names


def _from_ssurgo_text(path: Path) -> GroupTable:
    with path.open(newline="", encoding="utf-8", errors="replace") as handle:
        rows = list(csv.reader(handle, delimiter="|", quotechar='"'))
    if rows and "mukey" in [cell.lower() for cell in rows[0]]:
        header = [cell.lower() for cell in rows[0]]
        mukey_at, group_at = header.index("mukey"), header.index("hydgrpdcd")
        name_at = header.index("muname") if "muname" in header else None
        rows = rows[1:]
    else:
        mukey_at, group_at, name_at = MUKEY_AT, HYDGRPDCD_AT, MUNAME_AT
        wrong = next((n for n, row in enumerate(rows, 1) if len(row) != MUAGGATT_COLUMNS), None)
        if wrong is not None:
            raise InputError(
                f"--soil-table: {path} line {wrong} has {len(rows[wrong - 1])} fields, not the "
                f"{MUAGGATT_COLUMNS} of a SSURGO muaggatt.txt"
            )
    mukeys = pd.Series([row[mukey_at] for row in rows], dtype="string")
    groups = pd.Series([row[group_at] for row in rows], dtype="string")
    names = (
        _mapping(mukeys, pd.Series([row[name_at] for row in rows], dtype="string"), upper=False)
        if name_at is not None
        else {}
    )
    return GroupTable(_mapping(mukeys, groups), f"muaggatt.hydgrpdcd ({path})", names)


def _mapping(mukeys: pd.Series, values: pd.Series, upper: bool = True) -> dict[str, str]:
    keys = mukeys.astype("string").str.strip().str.replace(r"\.0$", "", regex=True)
    texts = values.astype("string").fillna("").str.strip()
    return dict(zip(keys, texts.str.upper() if upper else texts, strict=True))
