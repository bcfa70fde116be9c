"""The import upload's form: one JSON export file, read and decoded by the store.

The file field is required, and its validator decodes the upload with the store's
:func:`~scorekeeper.store.transfer.parse_json` (size and nesting limits included);
what is wrong with the document's matches is found when importing, all or nothing.
"""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import Field
from wtforms.validators import StopValidation

from scorekeeper.store.transfer import Limits, Problem, TransferError, parse_json


class ImportForm(FlaskForm):
    """Upload a Scorekeeper export; ``document`` is the decoded JSON once valid."""

    file = FileField("A Scorekeeper export (.json)",
                     validators=[FileRequired("Choose an exported .json file to import.")])

    def __init__(self, limits: Limits, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.limits = limits
        self.document: Any = None
        self.problems: list[Problem] = []
        self.unreadable = False  # the upload did not decode: not a JSON export at all

    def validate_file(self, field: Field) -> None:
        """Decode the upload; a file too big or not JSON is this field's error."""
        try:
            self.document = parse_json(field.data.read(self.limits.max_bytes + 1), self.limits)
        except TransferError as exc:
            self.problems = list(exc.problems)
            self.unreadable = True
            raise StopValidation("; ".join(p.message for p in exc.problems)) from None
