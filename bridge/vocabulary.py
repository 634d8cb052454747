"""The engine's vocabulary on the plugin side: read from ``engine_description.json``.

That file is ``sitecheck describe --json``, generated into the plugin and kept
fresh by a test (tests/plugin_layout), so the panel, the Processing
algorithms, the styles and the atlas name and colour everything as the engine
and its reports do, without importing the engine into QGIS.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DESCRIPTION_PATH = Path(__file__).resolve().parent / "engine_description.json"
DESCRIPTION: dict[str, Any] = json.loads(DESCRIPTION_PATH.read_text(encoding="utf-8"))

BY_JURISDICTION = "by_jurisdiction"


@dataclass(frozen=True)
class Role:
    """A layer the panel needs: its key, label, and what geometry it takes."""

    key: str
    label: str
    geometry: str  # "polygon", "line_or_polygon" or "raster"
    required: bool = False
    drawn: bool = False  # sent with every request (edits count before saving)
    help: str = ""
    flag: str = ""
    processing: str | None = None
    symbol: dict[str, Any] | None = None  # how maps draw it (the schema's MapSymbol)


ALL_ROLES: tuple[Role, ...] = tuple(
    Role(
        r["key"],
        r["label"],
        r["geometry"],
        r["required"],
        r["drawn"],
        r["help"],
        r["flag"],
        r["processing"],
        r["symbol"],
    )
    for r in DESCRIPTION["roles"]
)
ROLES: tuple[Role, ...] = tuple(
    role for role, r in zip(ALL_ROLES, DESCRIPTION["roles"], strict=True) if r["panel"]
)
"""The layers the dock panel asks for, in its order."""
ROLE_BY_KEY: dict[str, Role] = {role.key: role for role in ALL_ROLES}
MAP_ROLES: tuple[Role, ...] = tuple(
    sorted(
        (role for role in ALL_ROLES if role.symbol),
        key=lambda role: (role.symbol or {}).get("rank", 0),
    )
)
"""The layers maps draw, with their symbols, bottom first."""

ORDINANCES: tuple[tuple[str, str], ...] = tuple((p["id"], p["name"]) for p in DESCRIPTION["packs"])
ORDINANCE_TITLES: tuple[str, ...] = tuple(p["title"] for p in DESCRIPTION["packs"])

SEVERITY_ORDER: tuple[str, ...] = tuple(s["key"] for s in reversed(DESCRIPTION["severities"]))
"""Most demanding first."""
SEVERITY_LABELS: dict[str, str] = {s["key"]: s["label"] for s in DESCRIPTION["severities"]}
SEVERITY_COLOURS: dict[str, str] = {s["key"]: s["colour"] for s in DESCRIPTION["severities"]}

FLAG_KINDS: tuple[str, ...] = tuple(k["key"] for k in DESCRIPTION["flag_kinds"])
FLAG_COLOURS: dict[str, str] = {k["key"]: k["colour"] for k in DESCRIPTION["flag_kinds"]}
FLAG_OF_METRIC: dict[str, str] = {k["metric"]: k["key"] for k in DESCRIPTION["flag_kinds"]}
"""Which flag shows where a metric was measured: clicking a trigger naming it flashes the flag."""

KEY_METRICS: tuple[tuple[str, str, str], ...] = tuple(
    (m["name"], m["title"], m["display"])
    for m in (*DESCRIPTION["metrics"], *DESCRIPTION["runoff_metrics"])
    if m["panel"]
)
"""(metric, row title, display) of the panel's and the atlas's key figures."""

OPTIONS: dict[str, dict[str, Any]] = {o["name"]: o for o in DESCRIPTION["options"]}
SOIL_GROUPS: tuple[str, ...] = tuple(OPTIONS["default_hsg"]["choices"])
_KIND_OPTIONS = tuple(name for kind in DESCRIPTION["constraint_kinds"] for name in kind["options"])
KIND_NUMBER_OPTIONS: tuple[str, ...] = tuple(
    name for name in _KIND_OPTIONS if OPTIONS[name]["kind"] == "number"
)
KIND_TEXT_OPTIONS: tuple[str, ...] = tuple(
    name for name in _KIND_OPTIONS if OPTIONS[name]["kind"] == "text"
)
"""The settings of the engine's plug-in constraint kinds: dialogs and the panel add them."""


def option(name: str) -> dict[str, Any]:
    """An engine option as the description states it (label, help, default, bounds, flag)."""
    return OPTIONS[name]


LABEL_OF_FLAG: dict[str, str] = {
    **{o["flag"]: o["label"] for o in DESCRIPTION["options"] if o.get("flag")},
    **{r["flag"]: r["label"] for r in DESCRIPTION["roles"] if r.get("flag")},
}
_FLAG = re.compile(r"--[a-z][a-z0-9-]*")


def dialog_words(text: str) -> str:
    """An engine help text as a dialog says it: each command-line flag as its field's name.

    "--rainfall replaces its storms" reads "'Design-storm rainfall, ...' replaces its
    storms" in a dialog or tooltip, where no flag is typed.
    """
    return _FLAG.sub(
        lambda found: (
            f"'{LABEL_OF_FLAG[found.group(0)]}'"
            if found.group(0) in LABEL_OF_FLAG
            else found.group(0)
        ),
        text,
    )


# An input the plugin exported for the engine, as the engine names it: ".../inputs.gpkg:parcels".
_EXPORTED = re.compile(r"[^\s()'\"]*inputs\.gpkg:([a-z_]+)")


def in_qgis_words(text: str, layer_names: dict[str, str]) -> str:
    """An engine message as QGIS shows it: the user's layers and fields, not the CLI's words.

    Each exported input (``/tmp/sitecheck-…/inputs.gpkg:parcels``) becomes the
    name of the layer the user gave for that role (``layer_names`` maps
    Processing parameter names to layer names), and each flag the name of its
    field (:func:`dialog_words`).
    """

    def layer(found: re.Match) -> str:
        role = ROLE_BY_KEY.get(found.group(1))
        given = layer_names.get(role.processing or "") if role is not None else None
        if given:
            return f"'{given}'"
        return f"the {role.label if role is not None else found.group(1)} layer"

    return dialog_words(_EXPORTED.sub(layer, text))


def reply_error_words(reply: dict) -> str:
    """The worker's error as the panel shows it: a bad option under its field's label."""
    named = OPTIONS.get(str(reply.get("option", "")))
    if named is not None and reply.get("problem"):
        return f"{named['label']}: {reply['problem']}"
    return in_qgis_words(str(reply.get("error", "")), {})


# How the panel and the atlas write each display kind of the description.
NUMBER_FORMATS = {
    "pct": "{:.1f}%",
    "share": "{:.0%}",
    "signed_sqft": "{:+,.0f} sq ft",
    "cuft": "{:,.0f} cu ft",
    "cn": "{:.1f}",
    "storm": "{:.0f}-year, 24-hour",
    "sqft": "{:,.0f} sq ft",
}


def format_metric(value: object, kind: str) -> str:
    """A metric as the panel shows it; 'not measured' for a missing input."""
    if value is None:
        return "not measured"
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "text":
        return str(value)
    number = float(value)  # type: ignore[arg-type]
    if kind == "sqft_acres":
        return f"{number:,.0f} sq ft ({number / 43_560:.2f} acres)"
    return NUMBER_FORMATS.get(kind, NUMBER_FORMATS["sqft"]).format(number)
