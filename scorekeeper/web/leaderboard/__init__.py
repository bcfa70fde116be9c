"""Who is best at this table: a game's leaderboard, its records and the group's seasons."""
