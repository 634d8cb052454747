"""Where the sample village lies and the sizes everything in it is built from."""

from __future__ import annotations

CRS = "EPSG:2260"


ORIGIN_FT = (688000.0, 785000.0)  # south-west corner: Scarsdale, about 40.99 N, 73.79 W


STREET_FT = 50.0


DISTRICT_WIDTH_FT = 2600.0


NODATA = -9999.0


BIG_VILLAGE_LOTS = 1000


DEFAULT_PROJECT_SHARE = 0.15


DEM_MARGIN_FT = 50.0


STREAM_ROW = 3


STREETS_PER_DISTRICT = 8
