"""The probe's tests (run by `make test-probe`, see rules.mk): the reports
of the SDKs' servers go to the end of the test log."""

import sys


def pytest_terminal_summary(terminalreporter) -> None:
    module = sys.modules.get("test_probe_sdk_servers")
    if module is not None and module._results:
        terminalreporter.write_sep("=", "jsonrpc-envelope probe against the SDKs' servers")
        terminalreporter.write_line(module.report_text())
        terminalreporter.write_line(f"(also in {module.REPORTS})")
