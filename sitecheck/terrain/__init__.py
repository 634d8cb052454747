"""Slopes from a DEM: reading it, Horn's slope, exact coverage, steep regions, slope maps."""
