"""Hands: recording, editing and deleting a hand of a match."""
