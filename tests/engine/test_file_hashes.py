"""An input file's SHA-256 in the audit block: its bytes as they are when it is recorded."""

from __future__ import annotations

import hashlib
import os

from sitecheck.io.fingerprint import file_sha256, hash_ahead

from .conftest import let_settle


def test_a_file_hash_is_the_sha256_of_its_bytes(tmp_path):
    path = tmp_path / "dem.tif"
    path.write_bytes(b"elevations " * 1000)
    assert file_sha256(str(path)) == hashlib.sha256(b"elevations " * 1000).hexdigest()
    assert file_sha256(str(tmp_path)) is None  # a directory source (a FileGDB)
    assert file_sha256(str(tmp_path / "missing.tif")) is None


def test_a_file_rewritten_in_place_is_hashed_anew(tmp_path):
    """Hashes are kept while a file is unchanged; bytes rewritten at the same size with the
    modification time set back must still give the new bytes' hash."""
    path = tmp_path / "dem.tif"
    path.write_bytes(b"A" * 4096)
    let_settle(path)
    assert file_sha256(str(path)) == hashlib.sha256(b"A" * 4096).hexdigest()
    before = os.stat(path)
    path.write_bytes(b"B" * 4096)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_mtime_ns == before.st_mtime_ns
    assert file_sha256(str(path)) == hashlib.sha256(b"B" * 4096).hexdigest()


def test_a_file_replaced_by_another_is_hashed_anew(tmp_path):
    """A DEM swapped for another file of the same size (a new inode) gets its own hash."""
    path, other = tmp_path / "dem.tif", tmp_path / "new.tif"
    path.write_bytes(b"A" * 4096)
    let_settle(path)
    assert file_sha256(str(path)) == hashlib.sha256(b"A" * 4096).hexdigest()
    other.write_bytes(b"C" * 4096)
    os.replace(other, path)
    assert file_sha256(str(path)) == hashlib.sha256(b"C" * 4096).hexdigest()


def test_a_file_hashed_ahead_gives_the_sha256_of_its_bytes(tmp_path):
    path = tmp_path / "village.gpkg"
    content = os.urandom(3 << 20)  # more than one block read
    path.write_bytes(content)
    hash_ahead([str(path), None, str(tmp_path), str(tmp_path / "missing.gpkg")])
    assert file_sha256(str(path)) == hashlib.sha256(content).hexdigest()


def test_a_file_rewritten_after_it_was_hashed_ahead_is_hashed_anew(tmp_path):
    """The digest made ahead is of the bytes as they were: a file changed since (a new
    export of the same name, the same size, its time set back) gets its new bytes' hash."""
    path = tmp_path / "village.gpkg"
    path.write_bytes(b"A" * (2 << 20))
    let_settle(path)
    hash_ahead([str(path)])
    before = os.stat(path)
    replacement = tmp_path / "export.gpkg"
    replacement.write_bytes(b"B" * (2 << 20))
    os.replace(replacement, path)  # what an export does: a new file in its place
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert file_sha256(str(path)) == hashlib.sha256(b"B" * (2 << 20)).hexdigest()
