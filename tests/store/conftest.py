"""Fixtures for the store's tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def ctx(app):
    """An application context around the test, for tests that use the store directly."""
    with app.app_context():
        yield
