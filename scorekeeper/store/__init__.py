"""The database layer: models, the one writer of hands (``records``), the queries behind
history and statistics, export/import, and the migrations.

It builds on ``core`` and is used by ``web``, ``api`` and ``cli``; it never imports them.
"""
