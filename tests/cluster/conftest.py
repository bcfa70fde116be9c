"""The cluster test's figures, printed at the end of the run (also under xdist: a
test's recorded properties travel back to the controller with its report)."""

from __future__ import annotations

from tests.support.cluster import FIGURES


def pytest_terminal_summary(terminalreporter) -> None:
    for report in terminalreporter.stats.get("passed", []):
        for name, value in getattr(report, "user_properties", ()):
            if name == FIGURES:
                terminalreporter.write_line(value)
