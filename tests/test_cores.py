"""How many trainings the server runs at once: the cores it may use, from its cgroup's quota.

A container limited to two CPUs' worth of time (docker --cpus 2, a Kubernetes CPU limit)
still sees every CPU of its host; counting those would start a worker process per host CPU
(about 265 MB each) and run that many trainings at once on two cores' time.
"""

from __future__ import annotations

import pytest

from explorer.training import cores as core_count
from explorer.training import hub as train_hub
from explorer.training.cores import MAX_SLOTS, cgroup_cpu_quota, cores, slots_for


def _v2(tmp_path, cpu_max: str | None, own: str = "/", own_max: str | None = None):
    root = tmp_path / "cgroup"
    root.mkdir(parents=True)
    if cpu_max is not None:
        (root / "cpu.max").write_text(cpu_max + "\n")
    if own != "/":
        folder = root / own.strip("/")
        folder.mkdir(parents=True)
        if own_max is not None:
            (folder / "cpu.max").write_text(own_max + "\n")
    proc = tmp_path / "proc_cgroup"
    proc.write_text(f"0::{own}\n")
    return root, proc


def _v1(tmp_path, quota: str, period: str = "100000", mount: str = "cpu,cpuacct"):
    root = tmp_path / "cgroup"
    folder = root / mount
    folder.mkdir(parents=True)
    (folder / "cpu.cfs_quota_us").write_text(quota + "\n")
    (folder / "cpu.cfs_period_us").write_text(period + "\n")
    proc = tmp_path / "proc_cgroup"
    proc.write_text("12:memory:/\n4:cpu,cpuacct:/\n1:name=systemd:/\n")
    return root, proc


@pytest.fixture
def host_cpus(monkeypatch):
    """A host with 16 CPUs, all of which this process may run on."""
    monkeypatch.setattr(core_count.os, "sched_getaffinity", lambda pid: set(range(16)),
                        raising=False)


@pytest.mark.parametrize("cpu_max, quota", [
    ("200000 100000", 2.0),  # two CPUs
    ("150000 100000", 1.5),
    ("50000 100000", 0.5),
    ("max 100000", None),  # no limit
    ("", None),  # unreadable: as if no limit
    ("garbage here", None),
])
def test_a_cgroup_v2_quota_is_read(tmp_path, cpu_max, quota):
    root, proc = _v2(tmp_path, cpu_max)
    assert cgroup_cpu_quota(root, proc) == quota


@pytest.mark.parametrize("quota_us, quota", [("200000", 2.0), ("-1", None), ("x", None)])
def test_a_cgroup_v1_quota_is_read(tmp_path, quota_us, quota):
    root, proc = _v1(tmp_path, quota_us)
    assert cgroup_cpu_quota(root, proc) == quota


def test_the_tightest_quota_of_the_cgroup_and_those_above_it_counts(tmp_path):
    root, proc = _v2(tmp_path, "300000 100000", own="/app/web", own_max="max 100000")
    assert cgroup_cpu_quota(root, proc) == 3.0  # the parent's limit binds its children
    root2, proc2 = _v2(tmp_path / "b", "300000 100000", own="/app", own_max="100000 100000")
    assert cgroup_cpu_quota(root2, proc2) == 1.0


def test_no_cgroup_files_means_no_quota(tmp_path):
    assert cgroup_cpu_quota(tmp_path / "none", tmp_path / "missing") is None


def test_a_quota_of_two_cpus_on_a_16_cpu_host_gives_two_cores(tmp_path, host_cpus):
    root, proc = _v2(tmp_path, "200000 100000")
    assert cores(root, proc) == 2
    v1_root, v1_proc = _v1(tmp_path / "v1", "200000")
    assert cores(v1_root, v1_proc) == 2


def test_a_fraction_of_a_cpu_still_gives_one_core(tmp_path, host_cpus):
    root, proc = _v2(tmp_path, "50000 100000")
    assert cores(root, proc) == 1
    root, proc = _v2(tmp_path / "b", "150000 100000")
    assert cores(root, proc) == 1  # two trainings on 1.5 CPUs would both run slower


def test_without_a_quota_the_cpus_count_and_the_server_caps_its_trainings(tmp_path,
                                                                           host_cpus,
                                                                           monkeypatch):
    root, proc = _v2(tmp_path, "max 100000")
    assert cores(root, proc) == 16
    assert slots_for(16) == MAX_SLOTS == 4  # a worker process per training: about 265 MB each
    assert slots_for(2) == 2 and slots_for(0) == 1
    monkeypatch.setattr(train_hub, "cores", lambda: 16)
    assert train_hub.Hub().slots == MAX_SLOTS


def test_this_machine_has_at_least_one_core():
    assert 1 <= slots_for(cores()) <= MAX_SLOTS


def test_odd_contents_never_raise(tmp_path):
    """Whatever the files hold, the quota is read or counts as none: never an exception."""
    root, proc = _v2(tmp_path, "1" + "0" * 400 + " 1")  # too large for a float
    assert cgroup_cpu_quota(root, proc) is None
    proc.write_bytes(b"0::/caf\xe9\n")  # a cgroup name that is not UTF-8
    assert cgroup_cpu_quota(root, proc) is None
    proc.write_bytes(b"\x00\x00:::\n::\n")
    assert cgroup_cpu_quota(root, proc) is None


def test_a_cgroup_outside_the_namespace_is_not_read_as_one_under_it(tmp_path):
    root, proc = _v2(tmp_path, "100000 100000", own="/c", own_max="max 100000")
    proc.write_text("0::/../c\n")  # a sibling's path, seen from outside its namespace
    assert cgroup_cpu_quota(root, proc) is None


def test_v1_hierarchies_under_their_own_names_and_a_containers_path(tmp_path):
    root, proc = _v1(tmp_path, "300000", mount="cpu,cpuacct,cpuset")
    proc.write_text("3:cpu,cpuacct,cpuset:/\n")
    assert cgroup_cpu_quota(root, proc) == 3.0
    # a container without a cgroup namespace: its path is the host's, its mount its own
    root, proc = _v1(tmp_path / "docker", "200000", mount="cpu")
    proc.write_text("4:cpu:/docker/0123abcd\n")
    assert cgroup_cpu_quota(root, proc) == 2.0
