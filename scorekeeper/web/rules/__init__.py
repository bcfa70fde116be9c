"""The rules reference and the table's rules card."""
