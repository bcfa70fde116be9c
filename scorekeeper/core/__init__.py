"""The pure core: the games' rules with no web or database framework.

Cards, rule sheets, hand scoring, deal sizes, statistics, charts and the rules engine.
Everything here imports only the standard library and other ``core`` modules, so it can
be used (and tested) on its own; a test in ``tests/test_layers.py`` keeps it so.
"""
