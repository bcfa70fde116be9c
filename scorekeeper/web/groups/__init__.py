"""Groups: start one, join by invite link, players, view links."""
