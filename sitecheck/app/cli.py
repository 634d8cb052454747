"""The ``sitecheck`` command line.

Exit codes: 0 on success, 2 on bad input (one-line message on stderr), 1 on an
unexpected failure.
"""

from __future__ import annotations

import argparse
import signal
import sys
import traceback
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import TYPE_CHECKING

from sitecheck import __version__, termination
from sitecheck.allocator import map_large_blocks
from sitecheck.app import commands
from sitecheck.app.arguments import build_parser
from sitecheck.app.library_warnings import warnings_as_lines
from sitecheck.app.summary import print_check_summary, print_summary, say
from sitecheck.collector import batch_collection
from sitecheck.errors import InputError, OptionError, one_line
from sitecheck.geometry.parallel import set_workers, workers
from sitecheck.io.conninfo import RedactingStream
from sitecheck.io.fingerprint import hash_ahead
from sitecheck.io.output_set import error_words
from sitecheck.io.progress import Progress
from sitecheck.io.readers import LayerSource
from sitecheck.measure.inputs import MeasureInputs
from sitecheck.pipeline import settings as run_settings
from sitecheck.pipeline.outputs import (
    Destinations,
    run_inputs,
    write_check_outputs,
    write_measure_outputs,
)
from sitecheck.pipeline.run import measure_only, screen
from sitecheck.pipeline.spec import RunSpec
from sitecheck.reports.compact import FULL
from sitecheck.schema.options import (
    DEFAULT_PARTITION_SIZE,
    DEFAULT_REPORT_DETAILS,
    OPTION_BY_NAME,
    option,
)
from sitecheck.schema.roles import VECTOR_ROLES
from sitecheck.screening.packs import PackChoice, choose_packs

if TYPE_CHECKING:
    from sitecheck.distributed.window import TaskSpec

__all__ = ["build_parser", "main"]


def measure_inputs(args: argparse.Namespace) -> MeasureInputs:
    """Layer sources from parsed arguments."""
    sources = {
        role: LayerSource.parse(role, getattr(args, role)) if getattr(args, role) else None
        for role in VECTOR_ROLES
    }
    return MeasureInputs.of(sources, args.dem)


def run_spec(args: argparse.Namespace) -> RunSpec:
    """The run that parsed ``measure`` or ``check`` arguments ask for; bad values raise InputError."""
    values = vars(args)
    spec = RunSpec(inputs=measure_inputs(args), settings=run_settings.measure_settings(values))
    if args.command != "check":
        return spec
    soils = LayerSource.parse("soils", args.soils) if args.soils else None
    return RunSpec(
        inputs=spec.inputs,
        settings=spec.settings,
        ordinance=args.ordinance,
        tolerance=float(run_settings.value_of(values, "tolerance")),  # type: ignore[arg-type]
        jurisdictions=jurisdiction_source(args),
        jurisdiction_field=args.jurisdiction_field,
        runoff=run_settings.runoff_options(values, soils),
    )


def destinations(args: argparse.Namespace) -> Destinations:
    """The files a ``measure`` or ``check`` run writes."""
    report_details = getattr(args, "report_details", DEFAULT_REPORT_DETAILS)
    return Destinations(
        out=args.out,
        json=args.json,
        report=getattr(args, "report", None),
        all_parcels=args.all_parcels,
        jsonl=args.jsonl,
        table=args.table,
        json_layout=str(option("json_layout").check(args.json_layout)),
        report_details=int(option("report_details").check(report_details)),  # type: ignore[call-overload]
    )


def jurisdiction_source(args: argparse.Namespace) -> LayerSource | None:
    """The ``--jurisdictions`` layer, when given."""
    if not args.jurisdictions:
        return None
    return LayerSource.parse("jurisdictions", args.jurisdictions)


def apply_threads(args: argparse.Namespace) -> None:
    """Honour ``--threads``."""
    threads = option("threads").check(args.threads)
    if threads is not None:
        set_workers(int(threads))  # type: ignore[call-overload]


def run_measure(args: argparse.Namespace) -> int:
    apply_threads(args)
    progress = Progress(quiet=args.quiet)
    spec = run_spec(args)
    where = destinations(args)
    stages = where.measure_stages()
    with where.output_set(spec) as outputs:
        hash_ahead(named.path for named in run_inputs(spec) if named is not None)
        result = measure_only(spec, progress, stages)
        write_measure_outputs(result, where, outputs, progress, stages)
    for message in result.log.warnings:
        progress.warn(message)
    print_summary(result, args)
    return 0


def run_check(args: argparse.Namespace) -> int:
    apply_threads(args)
    # A bad pack stops the run before any layer is opened.
    packs = choose_packs(args.ordinance, jurisdiction_source(args), args.jurisdiction_field)
    spec = run_spec(args)
    progress = Progress(quiet=args.quiet)
    _refuse_options_of_other_engines(args)
    if args.engine != "single":
        return run_check_in_partitions(args, progress, packs)
    where = destinations(args)
    # The reasons of the rules not triggered are worded only for an output showing them.
    spec = replace(spec, unlisted_reasons=FULL in where.layouts)
    stages = where.check_stages(runoff=spec.runoff.requested)
    with where.output_set(spec) as outputs:
        hash_ahead(named.path for named in run_inputs(spec) if named is not None)
        result = screen(spec, progress, packs=packs, stages=stages)
        write_check_outputs(result, where, outputs, progress, stages)
    for message in result.measured.log.warnings:
        progress.warn(message)
    print_check_summary(result, args)
    return 0


ENGINES_OF_OPTIONS = {
    "--scheduler": ("dask",),
    "--workers": ("dask",),
    "--partition-size": ("dask", "windowed"),
    "--worker-memory": ("dask",),
}
"""The options of a run in partitions, and the engines each is for."""


def _refuse_options_of_other_engines(args: argparse.Namespace) -> None:
    """One line naming every option given that the chosen engine does not take."""
    given = {
        "--scheduler": args.scheduler is not None,
        "--workers": args.workers is not None,
        "--partition-size": args.partition_size != DEFAULT_PARTITION_SIZE,
        "--worker-memory": args.worker_memory != "auto",
    }
    refused: dict[tuple[str, ...], list[str]] = {}
    for flag, engines in ENGINES_OF_OPTIONS.items():
        if given[flag] and args.engine not in engines:
            refused.setdefault(engines, []).append(flag)
    if refused:
        raise InputError(
            "; ".join(
                f"{', '.join(flags)}: for --engine {' or '.join(engines)} only"
                for engines, flags in refused.items()
            )
        )


def run_check_in_partitions(args: argparse.Namespace, progress: Progress, packs: PackChoice) -> int:
    """``check --engine dask`` (partitions on a Dask cluster) or ``--engine windowed`` (one
    after another in this process): outputs written as the partitions come."""
    from sitecheck.distributed.run import DaskOptions, run_check_distributed

    spec = replace(dask_run_spec(args), packs=packs)
    options = DaskOptions(
        scheduler=args.scheduler,
        workers=args.workers,
        partition_size=args.partition_size,
        memory_limit=args.worker_memory,
        engine=args.engine,
    )
    where = destinations(args)
    run = run_check_distributed(spec, where, options, progress)
    for message in run.warnings:
        progress.warn(message)
    on = f"on Dask ({run.workers} worker(s), " if args.engine == "dask" else "in one process ("
    say(
        f"SiteCheck {__version__} {on}{run.partitions} "
        f"partitions): {run.parcels_written:,} parcels screened in {run.seconds:,.1f} s "
        f"({run.parcels_written / max(run.seconds, 1e-9):,.0f} parcels/s); "
        f"{run.parcels_with_work:,} with work, {run.parcels_with_triggers:,} with triggers."
    )
    say(f"outputs: {', '.join(str(path) for path in where.written())}")
    return 0


def dask_run_spec(args: argparse.Namespace) -> TaskSpec:
    """The run in partitions that parsed ``check --engine dask`` or ``windowed`` arguments
    ask for.

    Raises
    ------
    InputError
        For options a run in partitions cannot honour.
    """
    from sitecheck.distributed.window import TaskSpec

    if args.report:
        raise InputError(
            f"--report: the HTML report holds every parcel of a run at once; --engine "
            f"{args.engine} checks them a partition at a time and writes --out and --json "
            "(make a report of a few parcels with --engine single)"
        )
    for name in ("workers", "partition_size"):
        option(name).check(getattr(args, name))
    _check_worker_memory(args.worker_memory)
    return TaskSpec(
        run=run_spec(args),
        all_parcels=args.all_parcels,
        runoff_columns=(),
        # A Dask worker runs one task a core; this process has the cores to itself.
        threads=args.threads or (1 if args.engine == "dask" else workers()),
    )


WORKER_MEMORY_FLOOR = 256 * 2**20
"""The least --worker-memory taken. Measured on the 1,214-parcel sample village in one
partition: a worker peaked at 283 MiB; at 200MiB and 256MiB it was killed, at 300MiB it
finished. Below 256MiB no partition has a chance, so the option is refused."""


def _check_worker_memory(text: str) -> None:
    """``--worker-memory``: ``auto`` or a positive size Dask reads ("1.5GB", "800MiB")."""
    if text == "auto":
        return
    from dask.utils import parse_bytes

    try:
        size = parse_bytes(text)
    except (ValueError, TypeError):
        size = 0
    if size <= 0:
        raise InputError(f"--worker-memory: give auto or a size such as 1.5GB (got {text!r})")
    if size < WORKER_MEMORY_FLOOR:
        raise InputError(
            f"--worker-memory: {text} is under 256MiB, less than a Dask worker needs for a "
            "partition (the sample village's took 283 MiB); give auto or at least 256MiB"
        )


COMMANDS = {
    "measure": run_measure,
    "check": run_check,
    "rules": commands.run_rules,
    "validate": commands.run_validate,
    "notify": commands.run_notify,
    "adjoining-buffer": commands.run_adjoining_buffer,
    "serve": commands.run_serve,
    "steep-slopes": commands.run_steep_slopes,
    "describe": commands.run_describe,
    "sample-village": commands.run_sample_village,
}


def run() -> int:
    """The ``sitecheck`` command and ``python -m sitecheck`` (as the plugin starts the
    engine): a process of its own, whose large arrays get pages of their own
    (:mod:`sitecheck.allocator`); a caller embedding :func:`main` keeps its allocator."""
    map_large_blocks()
    return main()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    termination.install()
    streams = sys.stdout, sys.stderr
    sys.stderr = RedactingStream(sys.stderr)
    if args.command != "serve":  # the worker's replies are redacted where they are made
        sys.stdout = RedactingStream(sys.stdout)
    try:
        try:
            with warnings_as_lines(), _collection_for(args.command):
                code = _run(args)
        finally:
            termination.uninstall()  # the run has ended: a later SIGTERM has nothing to stop
        if code == 0 and termination.requested():  # swallowed where it was raised
            return _terminated()
        return code
    except termination.Terminated:  # came as the run ended, before the handler went
        return _terminated()
    finally:
        sys.stdout, sys.stderr = streams


def _collection_for(command: str) -> AbstractContextManager[None]:
    """A batch command collects cycles rarely; the worker's session keeps the default."""
    return nullcontext() if command == "serve" else batch_collection()


def _run(args: argparse.Namespace) -> int:
    """Run a parsed command; its exit code, a user's error printed in one line."""
    try:
        return COMMANDS[args.command](args)
    except OptionError as error:
        return _refused(error.worded(option_flag(error.option)))
    except InputError as error:
        return _refused(*error.report_lines())
    except FileNotFoundError as error:
        return _refused(one_line(error))
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        return _refused(one_line(f"{error_words(error)}{where}"))
    except KeyboardInterrupt:
        print("sitecheck: interrupted", file=sys.stderr)
        return 130
    except termination.Terminated:
        return _terminated()
    except Exception as error:
        if termination.requested():  # a library's callback turned it into its own error
            return _terminated()
        traceback.print_exc()
        print(
            f"sitecheck: error: unexpected failure ({type(error).__name__}: "
            f"{one_line(error)}); the traceback above says where",
            file=sys.stderr,
        )
        return 1


def option_flag(name: str) -> str:
    """How the command line names an option: its flag (the name itself if not an option)."""
    known = OPTION_BY_NAME.get(name)
    return known.flag if known is not None else name


def _terminated() -> int:
    print("sitecheck: terminated", file=sys.stderr)
    return 128 + signal.SIGTERM


def _refused(*lines: str) -> int:
    """Print a user's error, a line each problem; the exit code of bad input."""
    for line in lines:
        print(line if line.startswith("  ") else f"sitecheck: error: {line}", file=sys.stderr)
    return 2
