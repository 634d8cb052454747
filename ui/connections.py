"""Signal connections to objects the panel does not own (layers, the project), undone together."""

from __future__ import annotations

import contextlib


class Connections:
    """Connects signals to slots and remembers each pair, so every one can be disconnected."""

    def __init__(self) -> None:
        self._made: list[tuple[object, object]] = []

    def connect(self, signal, slot) -> None:
        signal.connect(slot)
        self._made.append((signal, slot))

    def disconnect_all(self) -> None:
        """Undo every connection made; those whose object is gone are skipped."""
        for signal, slot in self._made:
            with contextlib.suppress(TypeError, RuntimeError):
                signal.disconnect(slot)  # type: ignore[attr-defined]
        self._made = []

    def __len__(self) -> int:
        return len(self._made)
