"""Reading layers and writing outputs: sources, parcels, the working CRS, atomic writers, progress."""
