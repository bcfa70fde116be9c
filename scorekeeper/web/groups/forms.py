"""The groups room's forms: start a group; add or edit a player."""

from __future__ import annotations

from flask_wtf import FlaskForm

from scorekeeper.web.fields import ColourField, NameField


class GroupForm(FlaskForm):
    """Start a group: just its name (up to 80 characters)."""

    name = NameField("Group name", limit=80)


class PlayerForm(FlaskForm):
    """Add a player (a blank colour takes the group's next one) or edit one."""

    name = NameField("Name")
    colour = ColourField("Colour", required=False)


class EditPlayerForm(PlayerForm):
    """Edit a player: the colour must be given."""

    colour = ColourField("Colour")
