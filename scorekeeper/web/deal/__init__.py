"""The deal helper: how many cards with this many players?"""
