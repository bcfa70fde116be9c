"""The leaderboard room's form: a named season's name, first and last day."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import DateField
from wtforms.validators import InputRequired

from scorekeeper.web.fields import NameField


class SeasonForm(FlaskForm):
    """Define a season: its ratings start fresh on the first day (both days count)."""

    name = NameField("Season name")
    first_day = DateField("First day", validators=[InputRequired("Enter the first day.")])
    last_day = DateField("Last day", validators=[InputRequired("Enter the last day.")])
