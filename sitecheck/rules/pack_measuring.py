"""A pack's ``[measuring]`` table: what the law fixes about measuring, beside its rules.

The adjoining property buffer of Scarsdale's § 254-4 lies only on lots in its
Residence A districts. Which districts those are is the ordinance's, so the pack
says it, naming one of its list parameters (the list its rules test with ``in``):

.. code-block:: toml

    [measuring]
    adjoining_buffer_districts = "residence_a"
"""

from __future__ import annotations

from sitecheck.rules.pack_model import (
    MeasuringSection,
    PackError,
    PackNames,
    ParameterValue,
    refuse_unknown_keys,
)

MEASURING_KEYS = {"adjoining_buffer_districts", "notes"}


def measuring_section(
    data: dict, parameters: dict[str, ParameterValue], names: PackNames, where: str
) -> MeasuringSection:
    """The ``[measuring]`` table, its parameter names marked used.

    Raises
    ------
    PackError
        For an unknown key, or a name that is not a list parameter of texts.
    """
    table = data.get("measuring")
    if table is None:
        return MeasuringSection()
    context = f"{where}: [measuring]"
    refuse_unknown_keys(table, MEASURING_KEYS, context)
    name = table.get("adjoining_buffer_districts")
    if name is None:
        return MeasuringSection()
    lists = {
        key: value
        for key, value in parameters.items()
        if isinstance(value, tuple) and all(isinstance(item, str) for item in value)
    }
    if not isinstance(name, str) or name not in lists:
        offered = ", ".join(sorted(lists)) or "none in this pack"
        raise PackError(
            f"{context}: adjoining_buffer_districts names a list parameter of district codes "
            f"(got {name!r}; lists of texts: {offered})"
        )
    names.used.add(name)
    districts = tuple(str(code) for code in lists[name])
    return MeasuringSection(districts, _label(data, name))


def _label(data: dict, name: str) -> str:
    spec = data.get("parameters", {}).get(name)
    label = spec.get("label") if isinstance(spec, dict) else None
    return str(label) if label else name.replace("_", " ")
