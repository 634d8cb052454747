"""The plugin loads in a real QGIS and leaves nothing behind when unloaded."""

from __future__ import annotations

import os
import subprocess

from qgis.core import QgsApplication


def test_class_factory_registers_and_unload_removes_the_provider(plugin):
    registry = QgsApplication.processingRegistry()
    assert registry.providerById("sitecheck") is not None
    plugin.unload()
    assert registry.providerById("sitecheck") is None
    plugin.initProcessing()
    assert registry.providerById("sitecheck") is not None


def test_qgis_process_finds_the_plugin(plugin_root):
    env = dict(os.environ, QGIS_PLUGINPATH=str(plugin_root), QT_QPA_PLATFORM="offscreen")
    listed = subprocess.run(
        ["qgis_process.bin", "plugins"], env=env, capture_output=True, text=True, timeout=120
    )
    assert "sitecheck_qgis" in listed.stdout, listed.stdout + listed.stderr
