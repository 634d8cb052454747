"""Say what splitting drawn features by lot had to decide: unassigned work, stacked
lots, slivers over lot lines."""

from __future__ import annotations

import geopandas as gpd
import shapely

from sitecheck.geometry.lots import LotSplit
from sitecheck.io.clean import listed
from sitecheck.io.parcels import Parcels
from sitecheck.io.readers import LayerReader, LayerSource

SLIVER_SQFT = 1.0
"""Work on a lot smaller than this, from a feature lying mostly on another lot, is a
sliver of a drawn edge or of reprojection, counted on the feature's own lot."""

STACKED_SHARE = 0.99
"""Lots overlapping by this share of the smaller one have, in effect, one footprint."""


def unassigned_warning(source: LayerSource, records: list[dict[str, object]]) -> str:
    """The warning naming the features of a layer that belong to no lot."""
    fids = listed([record["fid"] for record in records])
    total = sum(float(str(record["area_sqft"])) for record in records)
    return (
        f"{source.label()}: {len(records)} feature(s) (FID {fids}), {total:,.1f} sq ft "
        "in all, touch no lot and name none in a parcel-id field: reported as unassigned "
        "work, charged to no lot; check where they were drawn"
    )


def note_split(
    split: LotSplit,
    frame: gpd.GeoDataFrame,
    parcels: Parcels,
    source: LayerSource,
    reader: LayerReader,
    report_unassigned: bool = True,
) -> None:
    """Warn about the features the split could not give to one lot as drawn.

    Unassigned features are also kept in ``reader.unassigned`` for the output
    (a reader seeing part of the layers, as a Dask window does, leaves the
    warning to the run, which knows whether another window found their lot);
    cover layers pass ``report_unassigned=False``, their features in the street
    being the public's.
    """
    sqft = parcels.working.sqft_per_unit2
    ids = parcels.ids
    fids = frame["_fid"].to_numpy()
    if report_unassigned:
        owned = split.owner >= 0
        reader.assigned.update((source.role, int(f)) for f in fids[owned])
        areas = shapely.area(frame.geometry.to_numpy()[split.unassigned]) * sqft
        records = [
            {"layer": source.role, "fid": int(fids[row]), "area_sqft": round(float(area), 1)}
            for row, area in zip(split.unassigned, areas, strict=True)
        ]
        reader.unassigned.extend(records)
        if records and not reader.partial_view:
            reader.warn(unassigned_warning(source, records))
    if split.shared:
        pairs = []
        for kept, other, area in split.shared:
            if area * sqft < SLIVER_SQFT:
                continue  # a digitising overlap along a shared line
            if _same_footprint(parcels.geoms[kept], parcels.geoms[other]):
                how = "the same footprint"
            else:
                how = f"overlapping by {area * sqft:,.1f} sq ft of the work"
            pairs.append(f"{ids[kept]} and {ids[other]} ({how})")
        if pairs:
            reader.warn(
                f"parcels layer: lots overlap where work was drawn: "
                f"{listed(sorted(set(pairs)))}; stacked records (condominium units, a lot "
                "listed twice) would each count the same work, so the work in an overlap is "
                "counted once, on the lot the work names or else the first in the layer"
            )
    if split.slivers:
        moved = [
            f"FID {fids[feature]} on {ids[lot]} ({area * sqft:.2f} sq ft)"
            for feature, lot, area in split.slivers
        ]
        reader.warn(
            f"{source.label()}: slivers under {SLIVER_SQFT:g} sq ft over a lot line (a drawn "
            f"edge or reprojection) counted on the feature's own lot: {listed(moved)}"
        )


def _same_footprint(first: shapely.Geometry, second: shapely.Geometry) -> bool:
    """Whether two lots cover, in effect, the same ground."""
    larger = max(float(shapely.area(first)), float(shapely.area(second)))
    common = float(shapely.area(shapely.intersection(first, second)))
    return larger > 0 and common >= STACKED_SHARE * larger
