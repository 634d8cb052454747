"""The village: the district template repeated on a grid, with owners and constraint layers."""

from __future__ import annotations

import math
from dataclasses import dataclass

import geopandas as gpd
import numpy as np
import shapely

from sitecheck.sample.constants import CRS, ORIGIN_FT, STREETS_PER_DISTRICT
from sitecheck.sample.model import Template
from sitecheck.sample.names import FIRST_NAMES, LAST_NAMES, SAINTS, STREAM_NAMES, STREET_NAMES


@dataclass(frozen=True)
class Plan:
    """How many districts, how they are arranged and how many lots are kept."""

    districts: int
    columns: int
    lots: int
    offsets: np.ndarray


def plan_village(template: Template, parcels: int) -> Plan:
    """Repeat the district, keeping whole blocks until there are at least ``parcels`` lots."""
    per = len(template.lots)
    sizes = np.bincount(template.lots.block.to_numpy())
    copies = max(1, math.ceil(parcels / per))
    cumulative = np.cumsum(np.tile(sizes, copies))
    kept = int(cumulative[int(np.searchsorted(cumulative, parcels))])
    districts = (kept - 1) // per + 1
    columns = math.ceil(math.sqrt(districts))
    index = np.arange(districts)
    offsets = np.column_stack(
        [
            ORIGIN_FT[0] + (index % columns) * template.width,
            ORIGIN_FT[1] + (index // columns) * template.height,
        ]
    )
    return Plan(districts, columns, kept, offsets)


def _replicate(geoms: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Copies of ``geoms`` shifted by each offset: all of the first copy, then the next."""
    if len(geoms) == 0 or len(offsets) == 0:
        return np.empty(0, dtype=object)
    per_copy = int(shapely.get_num_coordinates(geoms).sum())
    shift = np.repeat(offsets, per_copy, axis=0)
    return shapely.transform(np.tile(geoms, len(offsets)), lambda xy: xy + shift)


def _owners(rng: np.random.Generator, uses: np.ndarray) -> list[str]:
    """Owner names: people and family trusts, a church, the village, realty companies."""
    n = len(uses)
    last = rng.integers(0, len(LAST_NAMES), n)
    first = rng.integers(0, len(FIRST_NAMES), n)
    trust = rng.random(n) < 0.15
    saint = rng.integers(0, len(SAINTS), n)
    out = []
    for use, ln, fn, tr, st in zip(
        uses.tolist(), last.tolist(), first.tolist(), trust.tolist(), saint.tolist(), strict=True
    ):
        if use == "620":
            out.append(f"St. {SAINTS[st]} Church")
        elif use == "963":
            out.append("Village of Scarsdale")
        elif use in ("452", "481", "330"):
            out.append(f"{LAST_NAMES[ln]} Realty LLC")
        elif tr:
            out.append(f"{LAST_NAMES[ln]} Family Trust")
        else:
            out.append(f"{LAST_NAMES[ln]}, {FIRST_NAMES[fn]}")
    return out


def parcel_frame(template: Template, plan: Plan, rng: np.random.Generator) -> gpd.GeoDataFrame:
    """The lots of every district, with SBL ids, addresses, owners and land use."""
    lots, per = template.lots, len(template.lots)
    g = np.arange(plan.lots)
    district, t = g // per, g % per
    block = lots.block.to_numpy()[t]
    lot_no = lots.lot_no.to_numpy()[t]
    ids = [
        f"{d // 99 + 1}.{d % 99 + 1}-{b + 1}-{k + 1}"
        for d, b, k in zip(district.tolist(), block.tolist(), lot_no.tolist(), strict=True)
    ]
    centre = ((lots.fx0 + lots.fx1) / 2.0).to_numpy()[t]
    side = lots.side.to_numpy()[t]
    number = 2 * (centre // 20.0).astype(int) + np.where(side > 0, 1, 2)
    street = (district * STREETS_PER_DISTRICT + lots.street.to_numpy()[t]) % len(STREET_NAMES)
    address = [
        f"{n} {STREET_NAMES[s]}" for n, s in zip(number.tolist(), street.tolist(), strict=True)
    ]
    uses = lots.use.to_numpy()[t]
    geoms = _replicate(template.lot_geoms, plan.offsets)[: plan.lots]
    data = {"parcel_id": ids, "address": address, "owner": _owners(rng, uses), "land_use": uses}
    return gpd.GeoDataFrame(data, geometry=geoms, crs=CRS)


def existing_cover(template: Template, plan: Plan) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Existing impervious cover of the kept lots: geometries, global lot index, kind."""
    features, per = template.features, len(template.lots)
    lot = (np.arange(plan.districts)[:, None] * per + features.lot.to_numpy()[None, :]).ravel()
    keep = lot < plan.lots
    geoms = _replicate(features.geom.to_numpy(), plan.offsets)[keep]
    kinds = np.tile(features.kind.to_numpy(), plan.districts)[keep]
    return geoms, lot[keep], kinds


def constraint_frames(template: Template, plan: Plan) -> dict[str, gpd.GeoDataFrame]:
    """The constraint layers of every district, with per-district names."""
    d = np.arange(plan.districts)
    row = d // plan.columns
    stream_names = [STREAM_NAMES[r % len(STREAM_NAMES)] for r in row.tolist()]
    suffix = [f" {k + 1}" if plan.districts > 1 else "" for k in d.tolist()]
    per_district: dict[str, dict[str, list[object]]] = {
        "watercourses": {"name": list(stream_names)},
        "wetlands": {"wetland_id": [f"WP-{2 * k + j + 1}" for k in d.tolist() for j in (0, 1)]},
        "sda": {"name": [f"Bronx River SDA{s}" for s in suffix]},
        "impaired_watersheds": {"name": [f"{n} watershed" for n in stream_names]},
    }
    frames = {}
    for name, (geoms, attrs) in template.constraints.items():
        data: dict[str, list[object]] = dict(per_district.get(name, {}))
        for key, values in attrs.items():
            data[key] = list(values) * plan.districts
        order = ["wetland_id", "class"] if name == "wetlands" else list(data)
        frames[name] = gpd.GeoDataFrame(
            {k: data[k] for k in order}, geometry=_replicate(geoms, plan.offsets), crs=CRS
        )
    return frames
