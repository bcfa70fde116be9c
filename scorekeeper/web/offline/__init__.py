"""Offline support: the service worker, served from the top of the site."""
