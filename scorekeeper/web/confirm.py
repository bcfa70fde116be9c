"""Destructive actions ask first, with the page script or without it.

A destructive form (delete a hand, a new invite or view link, leave the group) is
carried out only when it holds ``confirm=yes``. The page script asks with the phone's
own dialog and adds that field when the person agrees; without the script the form
arrives without it and :func:`asks_first` answers with a page that asks, whose one
button sends the same request again with the field. Either way nothing changes until
a person said yes.
"""

from __future__ import annotations

from flask import render_template, request

FIELD = "confirm"


def asks_first(question: str, label: str, back: str) -> tuple[str, int] | None:
    """None when the request carries the person's yes; else the page asking
    ``question``, its button ``label`` and a way ``back`` that changes nothing."""
    if request.form.get(FIELD) == "yes":
        return None
    query = request.query_string.decode()
    action = request.path + (f"?{query}" if query else "")
    return render_template("confirm.html", question=question, label=label, action=action,
                           back=back, field=FIELD), 200
