"""Registers the ``browser`` marker (tests that drive a widget in headless Chromium) until pyproject.toml does."""

from __future__ import annotations


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "browser: drives a widget in headless Chromium served by Voila")
