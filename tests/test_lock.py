"""The locks the two commands install from: every requirement of pyproject.toml (and of
the build) pinned to one version per interpreter, inside its range, with hashes."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^ ;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")
PYTHONS = ("3.11", "3.12", "3.13")


def _pins(name: str) -> list[tuple[str, str, Marker | None, int]]:
    """(package, version, marker, number of hashes) for each pin of lock/NAME."""
    pins: list[tuple[str, str, Marker | None, int]] = []
    for line in (ROOT / "lock" / name).read_text().splitlines():
        if m := PIN.match(line):
            pins.append((m[1].lower(), m[2], Marker(m[3]) if m[3] else None, 0))
        elif line.strip().startswith("--hash=sha256:") and pins:
            package, version, marker, hashes = pins[-1]
            pins[-1] = (package, version, marker, hashes + 1)
    return pins


def _pinned(name: str, python: str) -> dict[str, str]:
    env = {"python_version": python, "python_full_version": f"{python}.0", "sys_platform": "linux",
           "platform_system": "Linux", "platform_machine": "x86_64", "platform_python_implementation": "CPython",
           "implementation_name": "cpython", "os_name": "posix"}
    out: dict[str, str] = {}
    for package, version, marker, _ in _pins(name):
        if marker is None or marker.evaluate(env):
            assert package not in out, f"{package} pinned twice for Python {python}"
            out[package] = version
    return out


def _requirements(extra: str | None) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"]) + (project["optional-dependencies"][extra] if extra else [])
    build = [line for line in (ROOT / "lock" / "build.in").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    return [Requirement(r) for r in wanted + build]


@pytest.mark.parametrize("lock, extra", [("app.txt", None), ("test.txt", "test")])
@pytest.mark.parametrize("python", PYTHONS)
def test_every_requirement_is_pinned_inside_its_range(lock, extra, python):
    pinned = _pinned(lock, python)
    env = {"python_version": python, "python_full_version": f"{python}.0", "sys_platform": "linux",
           "platform_python_implementation": "CPython"}
    for req in _requirements(extra):
        if req.marker is not None and not req.marker.evaluate(env):
            continue
        name = req.name.lower()
        assert name in pinned, f"{name} is not in lock/{lock}"
        assert req.specifier.contains(pinned[name], prereleases=True), f"{name}=={pinned[name]} outside {req}"


@pytest.mark.parametrize("lock", ["app.txt", "test.txt", "uv.txt"])
def test_every_pin_has_hashes(lock):
    pins = _pins(lock)
    assert pins
    assert all(hashes > 0 for *_, hashes in pins), [p for p in pins if p[3] == 0]


@pytest.mark.parametrize("python", PYTHONS)
def test_the_tool_and_the_tests_install_the_same_versions(python):
    app, test = _pinned("app.txt", python), _pinned("test.txt", python)
    assert {name: test[name] for name in app} == app
