"""History: the match list, match records, player statistics, export and import."""
