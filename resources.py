"""Qt resources of the plugin, compiled from resources.qrc by tools/make_resources.py.

Do not edit: run `python3 tools/make_resources.py` after changing resources.qrc.
"""

from qgis.PyQt import QtCore

qt_resource_data = b'\x00\x00\x02\x19<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">\n  <rect x="6" y="10" width="40" height="44" rx="3" fill="#f4f1e8" stroke="#3d5a40" stroke-width="3"/>\n  <path d="M12 40 q8 -8 16 0 t16 0" fill="none" stroke="#2f7fbf" stroke-width="3"/>\n  <path d="M12 48 q8 -8 16 0 t16 0" fill="none" stroke="#2f7fbf" stroke-width="3"/>\n  <circle cx="46" cy="22" r="13" fill="#3d8b40"/>\n  <path d="M39 22 l5 5 l9 -10" fill="none" stroke="#ffffff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>\n</svg>\n'

qt_resource_name = b'\x00\x07\x07;\xe0\xb3\x00p\x00l\x00u\x00g\x00i\x00n\x00s\x00\t\n\xb9\x1f\x9b\x00s\x00i\x00t\x00e\x00c\x00h\x00e\x00c\x00k\x00\x05\x00o\xa6S\x00i\x00c\x00o\x00n\x00s\x00\r\x0f\x8b(\xe7\x00s\x00i\x00t\x00e\x00c\x00h\x00e\x00c\x00k\x00.\x00s\x00v\x00g'

qt_resource_struct = b'\x00\x00\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00\x14\x00\x02\x00\x00\x00\x01\x00\x00\x00\x03\x00\x00\x00,\x00\x02\x00\x00\x00\x01\x00\x00\x00\x04\x00\x00\x00<\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00'


def qInitResources():  # noqa: N802 - the name pyrcc gives it
    QtCore.qRegisterResourceData(0x01, qt_resource_struct, qt_resource_name, qt_resource_data)


def qCleanupResources():  # noqa: N802 - the name pyrcc gives it
    QtCore.qUnregisterResourceData(0x01, qt_resource_struct, qt_resource_name, qt_resource_data)


qInitResources()
