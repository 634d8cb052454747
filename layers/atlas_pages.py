"""Each atlas page's content: a coverage feature per flagged parcel, and its requirements' rows."""

from __future__ import annotations

import hashlib
import re
from collections import Counter

from qgis.core import (
    QgsFeature,
    QgsField,
    QgsVectorLayer,
)

from ..bridge.qt_compat import INTEGER_FIELD, TEXT_FIELD
from ..bridge.vocabulary import KEY_METRICS, SEVERITY_LABELS, SEVERITY_ORDER, format_metric
from .compliance_layout import page_frame

# The page's measurements: the panel's, less the yes/no facts and the storm, which the
# triggers already say; the runoff rows only when the run screened runoff.
ATLAS_KINDS = frozenset({"sqft", "sqft_acres", "signed_sqft", "pct", "text"})


METRIC_ROWS = tuple(row for row in KEY_METRICS if row[2] in ATLAS_KINDS)


RUNOFF_ROWS = tuple(row for row in KEY_METRICS if row[2] in ("cn", "cuft"))


COVERAGE_FIELDS = (
    "parcel_id",
    "address",
    "owner",
    "jurisdiction",
    "highest_severity",
    "design_storm",
    "metrics_text",
    "file_name",
)


def safe_file_name(parcel_id: str) -> str:
    """A parcel id made safe for file names: 'SBL 1.2/3' -> 'SBL_1.2_3'."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", str(parcel_id)).strip("._") or "parcel"
    return name[:100]


def unique_file_names(parcel_ids) -> dict[str, str]:
    """A safe file name for each parcel id, no two alike.

    Ids that make the same safe name ('a/b', 'a_b' and 'a b' all make 'a_b'),
    compared without case as Windows and macOS file systems compare names,
    each get the first characters of their own id's SHA-256 after the name, so
    a file's name never depends on which parcel came first.
    """
    ids = list(dict.fromkeys(str(parcel_id) for parcel_id in parcel_ids))
    safe = {parcel_id: safe_file_name(parcel_id) for parcel_id in ids}
    taken = Counter(name.lower() for name in safe.values())
    names = {}
    for parcel_id, name in safe.items():
        if taken[name.lower()] > 1:
            digest = hashlib.sha256(parcel_id.encode("utf-8")).hexdigest()
            name = f"{name[:88]}-{digest[:10]}"
        names[parcel_id] = name
    assert len({name.lower() for name in names.values()}) == len(names), "file names collide"
    return names


def metrics_text(metrics: dict) -> str:
    """The page's measurements, a line each ("Lot area: 131,997.6 sq ft (3.03 acres)").

    Plain text, not an HTML label: QGIS built without QtWebKit (Debian 13's
    3.40, for one) draws an HTML label empty.
    """
    shown = METRIC_ROWS + (RUNOFF_ROWS if "cn_pre" in metrics else ())
    return "\n".join(
        f"{label}: {format_metric(metrics.get(name), kind)}" for name, label, kind in shown
    )


REQUIREMENT_FIELDS = ("parcel_id", "row", "section", "status", "requirement", "kind")
"""The requirements table's rows: one per triggered rule, rule needing review, or question."""


def requirement_rows(entry: dict) -> list[tuple[str, str, str, str]]:
    """A parcel's requirements as (section, status, requirement, kind) rows, in page order.

    Triggered rules by severity, then the rules needing review, then the
    questions that would settle them (the reviews, those that could change
    the most first). Every one is listed: a long list continues on more pages.
    """
    triggers = entry.get("triggers", [])
    ranked = sorted(
        (t for t in triggers if t["outcome"] == "triggered"),
        key=lambda t: SEVERITY_ORDER.index(t["severity"]),
    )
    rows = [
        (t["citation"], SEVERITY_LABELS[t["severity"]], f"{t['title']}: {t['reason']}", "triggered")
        for t in ranked
    ]
    rows += [
        (t["citation"], "Needs review", f"{t['title']}: {t['reason']}", "needs_review")
        for t in triggers
        if t["outcome"] == "needs_review"
    ]
    rows += [
        (
            ", ".join(review.get("citations") or []) or "?",
            "Question",
            review["question"],
            "question",
        )
        for review in entry.get("reviews") or []
    ]
    return rows


def requirements_layer(document: dict, parcel_ids=None) -> QgsVectorLayer:
    """The requirements table's rows for each parcel of ``document`` (or of ``parcel_ids``)."""
    layer = QgsVectorLayer("None", "compliance requirements", "memory")
    fields = [
        QgsField(name, INTEGER_FIELD if name == "row" else TEXT_FIELD)
        for name in REQUIREMENT_FIELDS
    ]
    layer.dataProvider().addAttributes(fields)
    layer.updateFields()
    wanted = None if parcel_ids is None else {str(i) for i in parcel_ids}
    features = []
    for entry in document["parcels"]:
        parcel_id = str(entry["parcel_id"])
        if wanted is not None and parcel_id not in wanted:
            continue
        for number, row in enumerate(requirement_rows(entry), start=1):
            feature = QgsFeature(layer.fields())
            feature.setAttributes([parcel_id, number, *row])
            features.append(feature)
    layer.dataProvider().addFeatures(features)
    return layer


def coverage_layer(
    parcels: QgsVectorLayer, document: dict, only_flagged: bool = True
) -> QgsVectorLayer:
    """The atlas coverage: one feature per page, with the page's text in its fields.

    A feature's geometry is its page's frame (:func:`page_frame`), not the
    parcel: the parcel is drawn from the parcels layer.

    Parameters
    ----------
    parcels : QgsVectorLayer
        The engine's parcels output (geometry and ``parcel_id``).
    document : dict
        The engine's JSON document of the run (``sitecheck check --json``).
    only_flagged : bool
        Only parcels with a triggered rule or a rule needing review.
    """
    entries = {str(p["parcel_id"]): p for p in document["parcels"]}
    file_names = unique_file_names(entries)
    coverage = QgsVectorLayer(
        f"Polygon?crs={parcels.crs().authid() or 'EPSG:4326'}", "compliance pages", "memory"
    )
    if not parcels.crs().authid():
        coverage.setCrs(parcels.crs())
    coverage.dataProvider().addAttributes([QgsField(name, TEXT_FIELD) for name in COVERAGE_FIELDS])
    coverage.updateFields()
    features = []
    for parcel in parcels.getFeatures():
        entry = entries.get(str(parcel["parcel_id"]))
        if entry is None:
            continue
        flagged = any(
            t["outcome"] in ("triggered", "needs_review") for t in entry.get("triggers", [])
        )
        if only_flagged and not flagged:
            continue
        feature = QgsFeature(coverage.fields())
        feature.setGeometry(page_frame(parcel.geometry()))
        attributes = entry.get("attributes", {})
        storm = entry.get("design_storm")
        feature.setAttributes(
            [
                str(entry["parcel_id"]),
                attributes.get("address") or "",
                attributes.get("owner") or "",
                entry.get("jurisdiction") or "",
                SEVERITY_LABELS.get(entry.get("highest_severity") or "", "No trigger"),
                f"{storm} (years)" if storm and storm != "none" else "none named",
                metrics_text(entry["metrics"]),
                file_names[str(entry["parcel_id"])],
            ]
        )
        features.append(feature)
    coverage.dataProvider().addFeatures(sorted(features, key=lambda f: f["parcel_id"]))
    coverage.updateExtents()
    return coverage


def subject_layer(parcels: QgsVectorLayer) -> QgsVectorLayer:
    """The parcels again, drawn only for the page's own parcel: a heavy outline."""
    from qgis.core import QgsFillSymbol, QgsRuleBasedRenderer

    subject = QgsVectorLayer(parcels.source(), "This parcel", parcels.providerType())
    symbol = QgsFillSymbol.createSimple(
        {"color": "0,0,0,0", "outline_color": "#000000", "outline_width": "0.9"}
    )
    root = QgsRuleBasedRenderer.Rule(None)
    rule = QgsRuleBasedRenderer.Rule(
        symbol, 0, 0, "\"parcel_id\" = attribute(@atlas_feature, 'parcel_id')", "This parcel"
    )
    root.appendChild(rule)
    subject.setRenderer(QgsRuleBasedRenderer(root))
    return subject
