"""Export and import of a match or a whole group, split by job: :mod:`.export` (JSON
and CSV out), :mod:`.validation` (a file decoded and validated into plans, nothing
written) and :mod:`.writing` (plans handed to the one writer, all or nothing)."""

from scorekeeper.store.transfer.export import CSV_COLUMNS, export_document, load_matches, to_csv
from scorekeeper.store.transfer.validation import (
    FORMAT,
    VERSION,
    Limits,
    Plan,
    Problem,
    TransferError,
    parse_json,
    validate,
)
from scorekeeper.store.transfer.writing import ImportReport, import_document, write_plans

__all__ = ["CSV_COLUMNS", "FORMAT", "VERSION", "ImportReport", "Limits", "Plan", "Problem",
           "TransferError", "export_document", "import_document", "load_matches",
           "parse_json", "to_csv", "validate", "write_plans"]
