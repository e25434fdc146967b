"""Headless Chromium for the browser tests (the built docs' pages, the game server's pages):
where Debian's ``chromium`` and ``chromedriver`` are, the flags a sandboxed CI machine needs,
and a driver with a profile of its own, removed afterwards."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from typing import Any

#: Headless, no sandbox (CI runs as root), and none of Chromium's own network traffic (a
#: closed network refuses it, many connections at a time).
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


def find_chromium() -> tuple[str, str] | None:
    """``(chromium, chromedriver)``, or ``None`` where either is missing."""
    binary = next(
        (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
    )
    driver = shutil.which("chromedriver")
    return (binary, driver) if binary and driver else None


@contextlib.contextmanager
def chromium(capabilities: Mapping[str, Any] | None = None) -> Iterator[Any]:
    """A Selenium driver of headless Chromium with a new, empty profile (needs selenium)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    found = find_chromium()
    assert found is not None
    binary, driver_path = found
    profile = tempfile.mkdtemp(prefix="tikigames-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    for name, value in (capabilities or {}).items():
        options.set_capability(name, value)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
