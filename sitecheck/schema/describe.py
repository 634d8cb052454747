"""The whole vocabulary as one JSON-ready description: ``sitecheck describe --json``.

The QGIS plugin keeps a copy of it (``bridge/engine_description.json``, kept
fresh by a test) and builds its Processing parameters, panel rows, styles and
legends from it, as QGIS's GRASS provider builds its algorithms from
description files.
"""

from __future__ import annotations

from sitecheck import __version__
from sitecheck.errors import NO_CRS
from sitecheck.schema.fields import (
    ID_FIELD_CANDIDATES,
    PASSTHROUGH_CANDIDATES,
    PHASE_FIELD_CANDIDATES,
    PROJECT_FIELDS,
    SDA_FIELD_CANDIDATES,
    SOIL_FIELD_CANDIDATES,
    ZONING_FIELD_CANDIDATES,
)
from sitecheck.schema.flags import FLAG_KINDS
from sitecheck.schema.kinds import KINDS
from sitecheck.schema.metrics import ACRE_METRICS, METRICS, RUNOFF_METRICS, acres_name
from sitecheck.schema.options import OPTIONS, SLOPE_THRESHOLDS_PCT
from sitecheck.schema.packs import BUNDLED_PACKS
from sitecheck.schema.reach import BASE_REACH_FT
from sitecheck.schema.roles import ROLES
from sitecheck.schema.severities import SEVERITIES, text_colour_on

SCHEMA_VERSION = 1


def describe() -> dict[str, object]:
    """Everything the engine names, for the plugin and anyone scripting around the engine."""
    return {
        "schema_version": SCHEMA_VERSION,
        "sitecheck_version": __version__,
        "roles": [role.to_json() for role in ROLES],
        "options": [option.to_json() for option in OPTIONS],
        "metrics": [metric.to_json() for metric in METRICS],
        "runoff_metrics": [metric.to_json() for metric in RUNOFF_METRICS],
        "acre_metrics": {name: acres_name(name) for name in ACRE_METRICS},
        "slope_thresholds_pct": list(SLOPE_THRESHOLDS_PCT),
        "constraint_kinds": [
            {
                "role": kind.role.key,
                "metrics": [metric.name for metric in kind.metrics],
                "flag_kinds": [flag.key for flag in kind.flags],
                "options": [chosen.name for chosen in kind.options],
            }
            for kind in KINDS
        ],
        "flag_kinds": [
            {
                "key": k.key,
                "label": k.label,
                "colour": k.colour,
                "metric": k.metric,
                "rank": k.rank,
                "hatch": k.hatch,
            }
            for k in FLAG_KINDS
        ],
        "severities": [
            {
                "key": s.key,
                "rank": rank,
                "label": s.label,
                "colour": s.colour,
                "text_colour": text_colour_on(s.colour),
                "meaning": s.meaning,
            }
            for rank, s in enumerate(SEVERITIES)
        ],
        "packs": [{"id": p.id, "name": p.name, "title": p.title} for p in BUNDLED_PACKS],
        "fields": {
            "id": list(ID_FIELD_CANDIDATES),
            "zoning": list(ZONING_FIELD_CANDIDATES),
            "sda": list(SDA_FIELD_CANDIDATES),
            "soil_group": list(SOIL_FIELD_CANDIDATES),
            "phase": list(PHASE_FIELD_CANDIDATES),
            "passthrough": {name: list(c) for name, c in PASSTHROUGH_CANDIDATES.items()},
            "project": list(PROJECT_FIELDS),
        },
        "messages": {"no_crs": NO_CRS},
        "reach": {
            "base_ft": BASE_REACH_FT,
            "rule": "base_ft plus the widest buffer of the run (wetland adjacent area, "
            "watercourse buffer, setbacks)",
        },
    }
