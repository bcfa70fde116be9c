"""HTTPS at home: what a plain-HTTP address lacks, and how to get the whole app."""
