"""Where a partitioned run's tasks run: on a Dask cluster, or one after another here.

The driver (:mod:`sitecheck.distributed.run`) plans the partitions and writes each
one's output as it comes; a runner only runs them. On Dask, each partition is a
task on a worker process, and outputs come as tasks finish. In this process
(``--engine windowed``), the same tasks run one after another, in the plan's order:
a county is checked in the memory of one window at a time, without a cluster's
scheduler, nannies and worker processes (the 250,010-parcel bench county: 81 s and
693 MB, against 85 s and 1,145 MB on a Dask cluster of one worker, 2026-12-07).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from sitecheck.allocator import hand_back_free_pages
from sitecheck.distributed.plan import Partition
from sitecheck.distributed.window import PartitionOutput, TaskSpec, screen_partition
from sitecheck.errors import InputError
from sitecheck.schema.options import DEFAULT_PARTITION_SIZE

if TYPE_CHECKING:
    from distributed import Client

WINDOWED = "windowed"
"""The engine that runs the partitions in this process (``--engine windowed``)."""


@dataclass(frozen=True)
class DaskOptions:
    """Where and how the partitions run.

    Attributes
    ----------
    scheduler : str, optional
        Address of a running Dask scheduler (``tcp://host:8786``); without it a
        local cluster is started for the run.
    workers : int, optional
        Worker processes of the local cluster (default: the machine's cores).
    partition_size : int
        About how many parcels each task screens.
    memory_limit : str
        Memory per local worker (Dask's ``memory_limit``, e.g. ``"2GB"``, or ``"auto"``).
    engine : str
        ``dask``; or ``windowed``: the partitions one after another in this process (the
        options of a cluster then unused).
    """

    scheduler: str | None = None
    workers: int | None = None
    partition_size: int = DEFAULT_PARTITION_SIZE
    memory_limit: str = "auto"
    engine: str = "dask"


class PartitionRunner(Protocol):
    """Runs a plan's partitions and hands back their outputs."""

    name: str  # the engine, as the JSON document's header names it
    scheduler: str  # where the tasks run, as the header says it
    workers: int
    order: str  # the order the parcels come in, as the header says it

    def outputs(self, partitions: list[Partition], spec: TaskSpec) -> Iterator[PartitionOutput]:
        """Each partition's output, as it comes."""
        ...


class InProcess:
    """The partitions one after another in this process, in the plan's order."""

    name = WINDOWED
    scheduler = "this process"
    workers = 1
    order = "parcels are listed in their partitions' order"

    def outputs(self, partitions: list[Partition], spec: TaskSpec) -> Iterator[PartitionOutput]:
        for partition in partitions:
            yield screen_partition(partition, spec)
            # The window's layers and results are freed: their pages go back to the
            # system before the next window is read, so the run stays at one window's size.
            hand_back_free_pages()


class OnDask:
    """The partitions as tasks on a Dask cluster, their outputs as the tasks finish.

    Parameters
    ----------
    client : distributed.Client
    options : DaskOptions
    on_partition : callable, optional
        Called with (partitions handed back, client) after each output has been taken.
    """

    name = "dask"
    order = "parcels are listed as their partitions finish"

    def __init__(
        self,
        client: Client,
        options: DaskOptions,
        on_partition: Callable[[int, Client], None] | None = None,
    ) -> None:
        self.client, self.options, self.on_partition = client, options, on_partition
        self.scheduler = options.scheduler or "local cluster"
        self.workers = len(client.scheduler_info()["workers"])

    def outputs(self, partitions: list[Partition], spec: TaskSpec) -> Iterator[PartitionOutput]:
        from distributed import as_completed

        futures = self.client.map(screen_partition, partitions, spec=spec, pure=False, retries=1)
        for done, future in enumerate(as_completed(futures), start=1):
            yield _partition_result(future, self.options)
            future.release()
            if self.on_partition is not None:
                self.on_partition(done, self.client)


@contextmanager
def partition_runner(
    options: DaskOptions,
    client: Client | None = None,
    on_partition: Callable[[int, Client], None] | None = None,
) -> Iterator[PartitionRunner]:
    """The runner ``options.engine`` names; a local cluster it starts ends with the block."""
    if options.engine == WINDOWED:
        yield InProcess()
        return
    opened: AbstractContextManager[Any] = nullcontext(client) if client else _client(options)
    with opened as connected:
        yield OnDask(connected, options, on_partition)


def _partition_result(future: Any, options: DaskOptions) -> PartitionOutput:
    """A partition's output; workers that kept dying on it are one line naming the options."""
    from distributed.scheduler import KilledWorker

    try:
        return cast(PartitionOutput, future.result())
    except KilledWorker:
        limit = (
            "its share of the memory" if options.memory_limit == "auto" else options.memory_limit
        )
        raise InputError(
            f"--worker-memory: the Dask workers died each time they ran one partition of up to "
            f"{options.partition_size:,} parcels (memory limit {limit} a worker); give each "
            "worker more memory (--worker-memory) or fewer parcels a task (--partition-size)"
        ) from None


def _client(options: DaskOptions) -> AbstractContextManager[Client]:
    """A client of the given scheduler, or of a local cluster that ends with the run."""
    from distributed import Client, LocalCluster

    if options.scheduler:
        try:
            return Client(options.scheduler, timeout="30s")
        except OSError as error:
            raise InputError(f"--scheduler: cannot reach {options.scheduler}: {error}") from error
    import dask

    workers = options.workers or os.cpu_count() or 1
    # A worker at its memory limit is restarted rather than paused: paused, it
    # waits for memory no one frees and the run never ends; restarted too often,
    # its partition fails with KilledWorker, which the run reports.
    with dask.config.set({"distributed.worker.memory.pause": False}):
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            memory_limit=options.memory_limit,
            dashboard_address=None,
            silence_logs=50,  # CRITICAL: a failure reaches the user as one line of ours
        )
    return _ClosingClient(Client(cluster), cluster)


class _ClosingClient:
    """Context manager that closes the client and its local cluster."""

    def __init__(self, client: Client, cluster: Any) -> None:
        self.client, self.cluster = client, cluster

    def __enter__(self) -> Client:
        return self.client

    def __exit__(self, *_: object) -> None:
        self.client.close()
        self.cluster.close()
