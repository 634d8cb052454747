"""Styles, map symbols and the compliance map: what the plugin prints and how results look."""
