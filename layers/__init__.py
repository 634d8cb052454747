"""Layer I/O between QGIS and the engine, result styles (.qml) and layout templates."""
