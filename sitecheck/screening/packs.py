"""Which rule packs a run applies: one for every parcel, or each area's own.

One pack for the whole run (``--ordinance``), or each parcel's own pack from a
jurisdiction layer (``--jurisdictions``): the jurisdiction holding most of the
lot names the pack by its id ("scarsdale") or the village's name ("Village of
Scarsdale"). The packs are chosen and loaded before any parcel is measured, so
a bad pack or an unknown jurisdiction stops a run before its work.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from sitecheck.errors import InputError
from sitecheck.io import vector_source
from sitecheck.io.layer_source import LayerSource, layer_fields
from sitecheck.io.parcels import find_field
from sitecheck.rules.pack import load_pack
from sitecheck.rules.pack_model import Pack
from sitecheck.schema.packs import BUNDLED


@dataclass(frozen=True)
class PackChoice:
    """The packs of a run.

    Attributes
    ----------
    single : Pack or None
        The pack of every parcel (``--ordinance`` without ``--jurisdictions``).
    jurisdictions : LayerSource or None
        The layer naming each area's pack.
    field_name : str or None
        Its field holding the pack id or village name, as found in the layer.
    by_value : dict of str to Pack
        The pack each value of that field names.
    """

    single: Pack | None = None
    jurisdictions: LayerSource | None = None
    field_name: str | None = None
    by_value: dict[str, Pack] = field(default_factory=dict)

    @property
    def packs(self) -> dict[str, Pack]:
        """Every pack the run may apply, by id."""
        if self.single is not None:
            return {self.single.id: self.single}
        return {pack.id: pack for pack in self.by_value.values()}

    @property
    def adjoining_buffer_districts(self) -> tuple[str, ...] | None:
        """The districts the packs' adjoining property buffer applies in: those every pack
        naming some names, together (a lot of any other pack has no rule on the buffer);
        None, every lot, when no pack names any."""
        named = [
            pack.measuring.adjoining_buffer_districts
            for pack in self.packs.values()
            if pack.measuring.adjoining_buffer_districts is not None
        ]
        if not named:
            return None
        return tuple(dict.fromkeys(code for districts in named for code in districts))


def pack_key(text: str) -> str:
    """Normalise a jurisdiction value for matching: 'Village of Scarsdale' -> 'scarsdale'."""
    key = re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()
    key = re.sub(r"^(the )?(village|town|city) of ", "", key)
    return key.replace(" ", "_")


def choose_packs(
    ordinance: str | None,
    jurisdictions: LayerSource | None = None,
    jurisdiction_field: str | None = None,
) -> PackChoice:
    """Load the packs a run applies, before any measuring.

    Parameters
    ----------
    ordinance : str, optional
        Pack id or file for the whole run; with ``jurisdictions`` it adds a
        custom pack to those the jurisdiction values may name.
    jurisdictions, jurisdiction_field
        A polygon layer and its field naming each area's pack.

    Raises
    ------
    InputError
        When neither is given, a pack is bad, the field is missing or a value
        names no pack.
    """
    if jurisdictions is None:
        if ordinance is None:
            raise InputError(
                "give --ordinance larchmont|homer|scarsdale|PACK.toml, or --jurisdictions"
            )
        return PackChoice(single=load_pack(ordinance))
    if not jurisdiction_field:
        raise InputError("--jurisdictions needs --jurisdiction-field NAME")
    columns = layer_fields(jurisdictions)
    found = find_field(columns, [jurisdiction_field])
    if found is None:
        raise InputError(
            f"{jurisdictions.label()}: no field '{jurisdiction_field}'; "
            f"fields are: {', '.join(columns)}"
        )
    values = vector_source.read_dataframe(
        jurisdictions.path, jurisdictions.layer, [found], read_geometry=False
    )[found]
    by_value = jurisdiction_packs(
        values.astype("string").fillna(""), ordinance, jurisdictions, found
    )
    return PackChoice(jurisdictions=jurisdictions, field_name=found, by_value=by_value)


def jurisdiction_packs(
    values: Iterable[str], ordinance: str | None, source: LayerSource, field_name: str
) -> dict[str, Pack]:
    """The pack each jurisdiction value names ('Village of Scarsdale' -> the scarsdale pack).

    Raises
    ------
    InputError
        When a value names no pack; the message lists the known packs.
    """
    available = {pack_id: pack_id for pack_id in BUNDLED}
    custom: Pack | None = load_pack(ordinance) if ordinance else None
    if custom is not None:
        available[pack_key(custom.id)] = custom.id
        available[pack_key(custom.name)] = custom.id
    distinct = sorted({str(v) for v in values if v})
    unknown = [v for v in distinct if pack_key(v) not in available]
    if unknown:
        raise InputError(
            f"{source.label()}: field '{field_name}' names jurisdictions with no pack: "
            f"{', '.join(unknown)}; "
            f"known packs: {', '.join(sorted(set(available.values())))}"
        )
    loaded: dict[str, Pack] = {}
    by_value: dict[str, Pack] = {}
    for value in distinct:
        pack_id = available[pack_key(value)]
        if pack_id not in loaded:
            loaded[pack_id] = (
                custom if custom is not None and custom.id == pack_id else load_pack(pack_id)
            )
        by_value[value] = loaded[pack_id]
    return by_value
