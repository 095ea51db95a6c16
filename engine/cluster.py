"""Ray, for the jobs that outgrow one machine: table builds (``shuai tb build --cluster``) and match farms
(``shuai match --cluster``).  Ray is an optional extra (``pip install '.[cluster]'``); this module is the only
place that imports it, and only when a command was given ``--cluster``: without it nothing changes.

``--cluster auto`` joins the Ray instance already running on this machine (``ray start --head``), or starts a
private one for the duration of the command, reachable from this machine only (``_start_private``);
``--cluster ADDRESS`` joins a running cluster (``HOST:6379``, or ``ray://HOST:10001`` through Ray Client).  Every worker needs the same Shuai version installed at the same path
(the tasks import ``engine``, and a match's engine commands are run on the workers); table files travel
through Ray's object store, so no shared directory is needed.
"""
from __future__ import annotations

import os

CLUSTER_HELP = ("Run on Ray: 'auto' joins the Ray instance of this machine or starts one; HOST:PORT joins a "
                "running cluster (ray start --head / ray start --address ...).  Needs pip install '.[cluster]'.")


LOOPBACK = "127.0.0.1"


class ClusterError(RuntimeError):
    """Ray is missing, or the cluster cannot be reached."""


def connect(address: str, num_cpus: int | None = None):
    """Connect to Ray (see the module's text) and return the ``ray`` module.  ``num_cpus`` limits a private
    instance started here (default: every core); it is ignored when joining a running one."""
    try:
        import ray
    except ImportError:
        raise ClusterError("--cluster needs Ray: pip install '.[cluster]' (or pip install ray)") from None
    if ray.is_initialized():
        return ray
    quiet = dict(log_to_driver=False, logging_level="ERROR")
    os.environ.setdefault("RAY_ACCEPT_USAGE_STATS_PROMPT", "0")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        if address == "auto":
            try:
                ray.init(address="auto", **quiet)           # a running instance on this machine
            except ConnectionError:
                _start_private(ray, num_cpus, quiet)
        else:
            _check_reachable(address)
            ray.init(address=address, **quiet)
    except ClusterError:
        raise
    except Exception as e:                                   # Ray raises several kinds; one line for the user
        raise ClusterError(f"cannot reach the Ray cluster at {address!r}: {e}") from None
    return ray


def _start_private(ray, num_cpus, quiet: dict) -> None:
    """Start a Ray instance for this command alone that no other machine can reach.

    Ray runs whatever code reaches its ports, so the private instance is bound to the loopback interface:
    Ray (checked in 2.60) binds its servers (GCS, raylet, object manager, workers) to the wildcard address
    unless the node's address *is* 127.0.0.1, and on Linux it replaces an asked-for 127.0.0.1 by the machine's
    address unless it believes clusters are off (its Windows/macOS default, ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER``
    = 0).  So both are set, for this process and the ones it starts.  No dashboard is started.  Token
    authentication is left to Ray: 2.60 turns it on for a new local instance unless ``RAY_AUTH_MODE`` says
    otherwise (its token in ``~/.ray/auth_token``); setting the variable here would come too late, Ray reads
    it when imported."""
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    try:
        from ray._private import ray_constants               # read once when Ray was imported
        ray_constants.ENABLE_RAY_CLUSTER = False
    except (ImportError, AttributeError):
        pass
    ray.init(num_cpus=num_cpus, include_dashboard=False, _node_ip_address=LOOPBACK, **quiet)


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail at once when nothing listens at ``address`` (Ray itself would retry for minutes)."""
    import socket
    hostport = address.split("://", 1)[-1]
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        raise ClusterError(f"bad cluster address {address!r}: expected auto, HOST:PORT or ray://HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise ClusterError(f"cannot reach the Ray cluster at {address!r}: {e}") from None


def cluster_cpus(ray) -> int:
    """The CPUs the cluster offers now (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def live_line(total: int, unit: str, enabled: bool | None = None):
    """The progress line of a long job (tables or games done of ``total``, with a status text): a tqdm bar on
    stderr when stderr is a terminal, nothing otherwise (``enabled`` forces it either way).  Lines printed
    through ``line.write`` appear above the bar."""
    from tqdm import tqdm
    return tqdm(total=total, unit=unit, dynamic_ncols=True, leave=False,
                disable=(not enabled) if enabled is not None else None)
