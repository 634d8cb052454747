"""SiteCheck engine: measure site plans and screen them against stormwater ordinances.

The engine is plain Python (geopandas, shapely, pyproj, rasterio, pyogrio,
exactextract, numpy). It never imports QGIS or Qt: the QGIS plugin runs it in a
separate process.
"""

__version__ = "0.1.0"
