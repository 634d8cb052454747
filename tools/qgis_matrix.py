"""Run the QGIS tests in the QGIS of each Debian release, in roots built from Debian's packages.

    python3 tools/qgis_matrix.py test trixie            # make test: QGIS 3.40 LTR
    python3 tools/qgis_matrix.py test bookworm trixie sid --record   # make test-qgis-matrix
    python3 tools/qgis_matrix.py build sid              # only build (or reuse) the root

Each release's root is made by ``mmdebstrap`` from Debian's own packages (QGIS,
python3-qgis, PostgreSQL + PostGIS, GDAL's tools, Xvfb) and kept under
``.cache/qgis-roots/<release>`` (ignored by git); a root is rebuilt only when the
package list changes. Inside each root an engine environment is made from that
release's own ``python3`` with the versions of ``constraints.txt``, the way a
Linux user sets up the engine from their system Python.

The tests run chrooted, in a mount namespace of their own (``unshare``), so the
mounts they need (``/proc``, ``/dev``, ``/sys``, this repository at its own
path, a fresh ``/tmp``) vanish with the run however it ends. Where the machine
itself runs the release asked for, its own QGIS is used and no root is built.

With ``--record`` the QGIS version, test count and time of each run are written
to ``bench/results/qgis_matrix.json``, the file the README's table comes from.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import tomllib

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / ".cache" / "qgis-roots"
RESULTS = REPO / "bench" / "results" / "qgis_matrix.json"
# the tests of the record itself check the last run, so a run does not include them
RECORD_TESTS = "tests/qgis/test_matrix_record.py"
MIRROR = "http://deb.debian.org/debian"
RELEASES = {"bookworm": "Debian 12", "trixie": "Debian 13", "sid": "Debian unstable"}
PACKAGES = (
    *("qgis", "python3-qgis", "qgis-providers", "python3-pytest", "python3-venv"),
    *("xvfb", "xauth", "gdal-bin", "poppler-utils", "postgresql", "postgresql-postgis"),
    "ca-certificates",
)
ENGINE = "/opt/sitecheck-engine"  # inside a root
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
HOST_CA = "/etc/ssl/certs/ca-certificates.crt"
PASSED_THROUGH = ("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")


def say(line: str) -> None:
    print(f"qgis-matrix: {line}", flush=True)


def native_release() -> str | None:
    """The release this machine runs, when it is one of the matrix's."""
    try:
        fields = dict(
            line.split("=", 1)
            for line in Path("/etc/os-release").read_text().splitlines()
            if "=" in line
        )
        version = Path("/etc/debian_version").read_text().strip()
    except OSError:
        return None
    if fields.get("ID") != "debian":
        return None
    if version.endswith("/sid") and not fields.get("VERSION_ID"):
        return "sid"
    codename = fields.get("VERSION_CODENAME", "").strip('"')
    return codename if codename in RELEASES else None


def fingerprint(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def engine_requirements() -> list[str]:
    """The engine's run-time requirements, from pyproject.toml (versions from constraints.txt)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return list(project["dependencies"])


def build_root(release: str) -> Path:
    """The release's root under .cache, built by mmdebstrap unless an up-to-date one is there."""
    root = CACHE / release
    stamp = fingerprint(release, MIRROR, *PACKAGES)
    stamp_file = root / ".sitecheck-root"
    if stamp_file.exists() and stamp_file.read_text().strip() == stamp:
        return root
    if shutil.which("mmdebstrap") is None:
        sys.exit("qgis-matrix: mmdebstrap missing: `make test` installs Debian's mmdebstrap")
    partial = CACHE / f"{release}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    say(f"building the {RELEASES[release]} root ({release}) from {MIRROR}")
    started = time.monotonic()
    subprocess.run(
        ["mmdebstrap", "--variant=apt", "--quiet", "--include=" + ",".join(PACKAGES),
         "--dpkgopt=path-exclude=/usr/share/man/*", "--dpkgopt=path-exclude=/usr/share/doc/*",
         "--aptopt=Acquire::Retries \"3\"",
         # a mirror that is a dated snapshot serves unstable's Release past its Valid-Until
         # date; the signature is still checked
         "--aptopt=Acquire::Check-Valid-Until \"false\"", release, str(partial), MIRROR],
        check=True,
    )  # fmt: skip
    (partial / ".sitecheck-root").write_text(stamp + "\n")
    shutil.rmtree(root, ignore_errors=True)
    partial.rename(root)
    say(f"{release} root built in {time.monotonic() - started:.0f} s")
    return root


def chrooted(root: Path, command: list[str], environment: dict[str, str]) -> int:
    """Run ``command`` in ``root``, in this repository, in a mount namespace of its own."""
    (root / REPO.relative_to("/")).mkdir(parents=True, exist_ok=True)
    shutil.copyfile("/etc/resolv.conf", root / "etc" / "resolv.conf")
    mounts = [
        f"mount -t proc proc {root}/proc",
        f"mount --rbind /sys {root}/sys",
        f"mount --rbind /dev {root}/dev",
        f"mount -t tmpfs tmpfs {root}/tmp",
        # after /tmp: a repository under /tmp needs its mount point in the fresh /tmp
        f"mkdir -p {root}{REPO}",
        f"mount --bind {REPO} {root}{REPO}",
    ]
    if Path(HOST_CA).exists():  # the machine's trust (an office proxy's CA, say) for pip
        mounts.append(f"mount --bind -o ro {HOST_CA} {root}{HOST_CA}")
    settings = [f"{key}={value}" for key, value in environment.items()]
    script = " && ".join(mounts) + ' && exec chroot "$@"'
    inner = ["/bin/sh", "-c", 'cd "$1" && shift && exec "$@"', "sh", str(REPO), *command]
    done = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", script, "sh",
         str(root), "/usr/bin/env", "-i", *settings, *inner],
        check=False,
    )  # fmt: skip
    return done.returncode


def base_environment() -> dict[str, str]:
    environment = {
        "PATH": SYSTEM_PATH,
        "HOME": "/root",
        "LANG": "C.UTF-8",
        "PIP_CERT": HOST_CA,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_DEFAULT_TIMEOUT": os.environ.get("PIP_DEFAULT_TIMEOUT", "120"),
    }
    environment.update({key: os.environ[key] for key in PASSED_THROUGH if key in os.environ})
    return environment


def make_engine(root: Path, release: str) -> None:
    """An engine environment in the root, from the release's python3 (cached by requirements)."""
    requirements = engine_requirements()
    constraints = (REPO / "constraints.txt").read_text(encoding="utf-8")
    stamp = fingerprint(*requirements, constraints)
    stamp_file = root / ENGINE.lstrip("/") / ".sitecheck-engine"
    if stamp_file.exists() and stamp_file.read_text().strip() == stamp:
        return
    say(f"making the engine environment in the {release} root from its python3")
    shutil.rmtree(root / ENGINE.lstrip("/"), ignore_errors=True)
    steps = (
        f"python3 -m venv {ENGINE} && {ENGINE}/bin/pip install --quiet --upgrade pip && "
        f"{ENGINE}/bin/pip install --quiet --only-binary=:all: -c constraints.txt "
        + " ".join(f"'{requirement}'" for requirement in requirements)
    )
    if chrooted(root, ["/bin/sh", "-c", steps], base_environment()):
        sys.exit(f"qgis-matrix: the engine environment could not be made in the {release} root")
    stamp_file.write_text(stamp + "\n")


def version_in(root: Path | None, package: str) -> str:
    query = ["dpkg-query", "-W", "-f", "${Version}", package]
    if root is not None:
        query[1:1] = ["--admindir", str(root / "var" / "lib" / "dpkg")]
    return subprocess.run(query, capture_output=True, text=True, check=True).stdout.strip()


def count(report: Path) -> dict[str, int]:
    suite = ElementTree.parse(report).getroot()
    suite = suite if suite.tag == "testsuite" else suite[0]
    totals = {key: int(suite.get(key, "0")) for key in ("tests", "failures", "errors", "skipped")}
    totals["passed"] = totals["tests"] - totals["failures"] - totals["errors"] - totals["skipped"]
    return totals


def run_tests(release: str, pytest_arguments: list[str]) -> dict[str, object]:
    """Run tests/qgis for ``release`` (natively where this machine runs it); what happened."""
    native = native_release() == release
    root = None if native else build_root(release)
    report = CACHE / f"{release}.junit.xml"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.unlink(missing_ok=True)
    pytest = ["python3", "-m", "pytest", "-p", "no:cacheprovider", f"--junitxml={report}"]
    pytest += pytest_arguments or ["tests/qgis", f"--ignore={RECORD_TESTS}"]
    started = time.monotonic()
    if root is None:
        environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
        environment.setdefault("SITECHECK_PYTHON", str(REPO / ".venv" / "bin" / "python"))
        pytest[0] = "/usr/bin/python3"
        returncode = subprocess.run(pytest, cwd=REPO, env=environment, check=False).returncode
    else:
        make_engine(root, release)
        environment = base_environment()
        environment.update(QT_QPA_PLATFORM="offscreen", SITECHECK_PYTHON=f"{ENGINE}/bin/python")
        returncode = chrooted(root, pytest, environment)
    seconds = time.monotonic() - started
    qgis = version_in(root, "python3-qgis").split("+")[0]
    python = version_in(root, "python3").split("-")[0]
    outcome = {"release": release, "debian": RELEASES[release], "qgis": qgis.split("-")[0],
               "debian_package": qgis, "python": python, "native": native,
               "seconds": round(seconds), "returncode": returncode}  # fmt: skip
    if report.exists():
        outcome.update(count(report))
    say(
        f"QGIS {outcome['qgis']} ({RELEASES[release]}, Python {python}"
        f"{', this machine' if native else ', chroot'}): {outcome.get('passed', 0)} of "
        f"{outcome.get('tests', '?')} passed in {seconds:.0f} s"
    )
    return outcome


README = REPO / "README.md"
TABLE_START = "<!-- qgis-matrix: written by tools/qgis_matrix.py --record -->"
TABLE_END = "<!-- /qgis-matrix -->"


def table(document: dict) -> str:
    """The README's table of tested QGIS versions, from bench/results/qgis_matrix.json."""
    lines = [
        TABLE_START,
        "| QGIS | Debian package | Python | where | tests passed | time |",
        "|---|---|---|---|---|---|",
    ]
    for run in document["runs"]:
        where = "this machine" if run["native"] else "chroot"
        lines.append(
            f"| {run['qgis']} | {run['debian']}: python3-qgis {run['debian_package']} | "
            f"{run['python']} | {where} | {run.get('passed', 0)} of {run.get('tests', '?')} | "
            f"{int(str(run['seconds'])) / 60:.1f} min |"
        )
    lines.append(
        f"\nMeasured {document['date']} at commit {document['commit']} on {document['machine']}."
    )
    lines.append(TABLE_END)
    return "\n".join(lines)


def write_table(document: dict) -> None:
    text = README.read_text(encoding="utf-8")
    start, end = text.index(TABLE_START), text.index(TABLE_END) + len(TABLE_END)
    README.write_text(text[:start] + table(document) + text[end:], encoding="utf-8")


def record(outcomes: list[dict[str, object]]) -> None:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True,
        check=False,
    ).stdout.strip()  # fmt: skip
    document = {
        "what": "tests/qgis in the QGIS of each Debian release (tools/qgis_matrix.py)",
        "date": datetime.date.today().isoformat(),
        "commit": commit,
        "machine": f"{os.cpu_count()} cores, {RELEASES.get(native_release() or '', 'Debian')}",
        "runs": outcomes,
    }
    RESULTS.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    write_table(document)
    say(f"wrote {RESULTS.relative_to(REPO)} and the README's table")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Arguments after -- go to pytest (default: tests/qgis).",
    )
    parser.add_argument("action", choices=("build", "test"))
    parser.add_argument("releases", nargs="+", choices=sorted(RELEASES))
    parser.add_argument(
        "--skip-native", action="store_true", help="skip a release this machine runs itself"
    )
    parser.add_argument("--record", action="store_true", help="write " + str(RESULTS.name))
    argv = sys.argv[1:] if argv is None else argv
    ours, pytest_arguments = (
        (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if ("--" in argv) else (argv, [])
    )
    options = parser.parse_args(ours)
    if os.geteuid() != 0:
        sys.exit("qgis-matrix: building and entering Debian roots needs root (run under sudo)")
    if options.action == "build":
        for release in options.releases:
            if native_release() != release:
                build_root(release)
        return 0
    outcomes = []
    for release in options.releases:
        if options.skip_native and native_release() == release:
            say(f"this machine runs {RELEASES[release]}: its own QGIS ran the tests already")
            continue
        outcomes.append(run_tests(release, pytest_arguments))
    if options.record:
        record(outcomes)
    return max((int(str(outcome["returncode"])) for outcome in outcomes), default=0)


if __name__ == "__main__":
    sys.exit(main())
