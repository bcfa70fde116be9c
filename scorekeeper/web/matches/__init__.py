"""Matches: setting one up and its scoreboard."""
