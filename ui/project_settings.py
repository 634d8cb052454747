"""The panel's choices (ordinance, layers, runoff settings), remembered in the QGIS project."""

from __future__ import annotations

from qgis.core import QgsProject


def save_panel(dock, scope: str) -> None:
    """Write the panel's choices into the current project."""
    project = QgsProject.instance()
    project.writeEntry(scope, "ordinance", dock.ordinance.currentData() or "")
    for key, box in dock.layer_boxes.items():
        layer = box.currentLayer()
        project.writeEntry(scope, f"layer/{key}", layer.id() if layer else "")
    jurisdictions = dock.jurisdictions.currentLayer()
    project.writeEntry(scope, "jurisdictions", jurisdictions.id() if jurisdictions else "")
    project.writeEntry(scope, "jurisdiction_field", dock.jurisdiction_field.currentField())
    dock.runoff_box.save(scope)
    dock.settings_box.save(scope)


def restore_panel(dock, scope: str) -> None:
    """Set the panel's choices from the current project (those it records)."""
    project = QgsProject.instance()
    ordinance, found = project.readEntry(scope, "ordinance", "")
    if found and ordinance:
        dock.ordinance.setCurrentIndex(dock.ordinance.findData(ordinance))
    for key, box in dock.layer_boxes.items():
        layer_id, found = project.readEntry(scope, f"layer/{key}", "")
        if found:
            box.setLayer(project.mapLayer(layer_id) if layer_id else None)
    layer_id, found = project.readEntry(scope, "jurisdictions", "")
    if found and layer_id:
        dock.jurisdictions.setLayer(project.mapLayer(layer_id))
    field, found = project.readEntry(scope, "jurisdiction_field", "")
    if found and field:
        dock.jurisdiction_field.setField(field)
    dock.runoff_box.restore(scope)
    dock.settings_box.restore(scope)
