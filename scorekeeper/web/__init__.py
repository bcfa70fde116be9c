"""The pages: one package per user task, each holding its views, forms and helpers.

``access`` (who may see and change a group) is shared by every room, like the other
modules beside it (``scoreboard``, ``confirm``, ``share``, ``links``…): no room imports
another room's modules (a test keeps it so). ``error_pages`` (the error pages) and
``security`` (body limits, id ranges, security headers) are installed on the whole app
by its factory. Nothing here is imported by the JSON API: what both front doors need
lives in ``core`` or ``store``.
"""

from __future__ import annotations

from flask import Flask


def register(app: Flask) -> None:
    """Register every room's blueprint on the app."""
    from scorekeeper.core.games import GAMES
    from scorekeeper.web.check import views as check
    from scorekeeper.web.deal import views as deal
    from scorekeeper.web.groups import players
    from scorekeeper.web.groups import views as groups
    from scorekeeper.web.hands import views as hands
    from scorekeeper.web.history import views as history
    from scorekeeper.web.home_https import views as home_https
    from scorekeeper.web.leaderboard import views as leaderboard
    from scorekeeper.web.links import public_url, static_url, url_for_ids
    from scorekeeper.web.matches import live
    from scorekeeper.web.matches import views as matches
    from scorekeeper.web.offline import views as offline
    from scorekeeper.web.rating_marks import rating, rating_change
    from scorekeeper.web.rules import views as rules

    # csrf_token() in templates is Flask-WTF's own (CSRFProtect puts it there): it signs
    # the session's token once per request that shows a form, about 13 µs of CPU, under
    # 1 % of the lightest page (1.7 ms), so nothing is cached around it.
    # ``games``: the registry, so a template asks a game's definition (its words,
    # whether it has jokers) rather than spelling its key.
    app.jinja_env.globals.update(public_url=public_url, url_for_ids=url_for_ids,
                                 static_url=static_url, rating=rating,
                                 rating_change=rating_change, games=GAMES)
    for blueprint in (groups.bp, players.bp, matches.bp, hands.bp, rules.bp, deal.bp,
                      check.bp, history.bp, leaderboard.bp, live.bp, offline.bp,
                      home_https.bp):
        app.register_blueprint(blueprint)
