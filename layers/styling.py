"""Load result layers styled (layers/styles/*.qml) into a layer group named after the run."""

from __future__ import annotations

from pathlib import Path

from qgis.core import QgsProcessingLayerPostProcessorInterface, QgsProject

STYLES_DIR = Path(__file__).resolve().parent / "styles"

# Post-processors must outlive the algorithm that creates them: QGIS calls them
# on the main thread after the run. They are dropped once they have run.
_pending: list[QgsProcessingLayerPostProcessorInterface] = []


def style_path(name: str) -> Path:
    """The .qml style of a result layer (``parcels``, ``flags``)."""
    return STYLES_DIR / f"{name}.qml"


class StyleAndGroup(QgsProcessingLayerPostProcessorInterface):
    """Apply a .qml style and move the layer into a group of the layer tree."""

    def __init__(self, style: str, group: str) -> None:
        super().__init__()
        self.style = style
        self.group = group

    def postProcessLayer(self, layer, context, feedback):  # noqa: N802 - QGIS API name
        if layer is not None and style_path(self.style).is_file():
            layer.loadNamedStyle(str(style_path(self.style)))
            layer.triggerRepaint()
        project = context.project() or QgsProject.instance()
        root = project.layerTreeRoot() if project is not None else None
        node = root.findLayer(layer.id()) if (root is not None and layer is not None) else None
        if root is not None and node is not None:
            group = root.findGroup(self.group) or root.insertGroup(0, self.group)
            group.addChildNode(node.clone())
            node.parent().removeChildNode(node)
        if self in _pending:
            _pending.remove(self)


def load_styled(
    context, destination_id: str, style: str, group: str, name: str | None = None
) -> None:
    """Ask Processing to load an output styled, into the named group, when the run ends;
    ``name`` names the layer (a batch's runs would otherwise load alike-named layers)."""
    if not context.willLoadLayerOnCompletion(destination_id):
        return
    details = context.layerToLoadOnCompletionDetails(destination_id)
    if name:
        details.name = name
    processor = StyleAndGroup(style, group)
    _pending.append(processor)
    details.setPostProcessor(processor)
