"""The cores this server may use (its CPUs, and no more than its cgroup's CPU quota, v1 or
v2) and how many trainings it runs at once (`slots_for`): what the training hub is sized by."""

from __future__ import annotations

import math
import os
from pathlib import Path

# Trainings that may run at once, whatever the machine: each runs in a worker process that
# holds its own torch, about 265 MB (proportional set size after ten trainings in the served
# app, bench/class_train.py; flat over forty trainings): the server and two workers hold
# 1.1 GB with thirty trained sessions (bench/class_train.py), two more workers keep that well inside
# Community Cloud's ~2.7 GB, and forty workers for a forty-CPU host would not.
MAX_SLOTS = 4
CGROUP_ROOT = Path("/sys/fs/cgroup")
PROC_CGROUP = Path("/proc/self/cgroup")


def cores(root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_CGROUP) -> int:
    """The cores this process may use: the CPUs it may run on, and no more than its
    cgroup's CPU quota. A container limited with `--cpus 2` or a Kubernetes CPU limit of 2
    still sees every CPU of its host (os.cpu_count, os.sched_getaffinity); only the quota
    says that it gets two CPUs' worth of time."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        n = os.cpu_count() or 1
    quota = cgroup_cpu_quota(root, proc_cgroup)
    if quota is not None:
        n = min(n, math.floor(quota))
    return max(1, n)


def cgroup_cpu_quota(root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_CGROUP
                     ) -> float | None:
    """CPUs' worth of time per period that this process's cgroup, or any cgroup above it,
    allows (cgroup v2 `cpu.max`, v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`): the
    tightest found, or None when none sets one. Never raises: whatever these files hold,
    a quota that cannot be read counts as none."""
    try:
        return _cgroup_cpu_quota(root, proc_cgroup)
    except Exception:  # odd bytes, odd numbers, odd layouts: fall back to the CPUs
        return None


def _cgroup_cpu_quota(root: Path, proc_cgroup: Path) -> float | None:
    found = []
    for line in proc_cgroup.read_text(errors="replace").splitlines():
        # "0::/path" (v2), "4:cpu,cpuacct:/path" (v1)
        _, controllers, path = (line.split(":", 2) + ["", ""])[:3]
        if controllers == "":
            dirs = [root]
            read = _cpu_max
        elif "cpu" in controllers.split(","):
            # v1 mounts a hierarchy under its controllers' names
            dirs = [root / name for name in dict.fromkeys(
                (controllers, "cpu", "cpu,cpuacct", "cpuacct,cpu"))]
            read = _cfs_quota
        else:
            continue
        parts = [p for p in path.strip().split("/") if p]
        if ".." in parts:  # a cgroup outside this namespace's view: not under the mount
            continue
        for top in dirs:
            # the process's own cgroup and each one above it: a limit may be set higher up
            # (inside a container, its own cgroup usually shows as the root)
            for depth in range(len(parts), -1, -1):
                quota = read(top.joinpath(*parts[:depth]))
                if quota is not None:
                    found.append(quota)
    return min(found) if found else None


def _cpu_max(folder: Path) -> float | None:
    """cgroup v2: "max 100000" (no limit) or "200000 100000" (two CPUs)."""
    try:
        quota, period = (folder / "cpu.max").read_text().split()[:2]
    except (OSError, ValueError):
        return None
    return None if quota == "max" else _ratio(quota, period)


def _cfs_quota(folder: Path) -> float | None:
    """cgroup v1: cpu.cfs_quota_us is -1 (no limit) or the microseconds per period."""
    try:
        quota = (folder / "cpu.cfs_quota_us").read_text()
        period = (folder / "cpu.cfs_period_us").read_text()
    except (OSError, ValueError):
        return None
    return _ratio(quota, period)


def _ratio(quota: str, period: str) -> float | None:
    """quota / period, or None unless both are positive whole numbers."""
    try:
        q, p = int(quota), int(period)
        return q / p if q > 0 and p > 0 else None
    except (ValueError, ArithmeticError):
        return None


def slots_for(n_cores: int) -> int:
    """Trainings the server runs at once: one per core it may use, at most MAX_SLOTS."""
    return max(1, min(n_cores, MAX_SLOTS))
