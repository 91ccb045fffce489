"""Actors: one mailbox and timer loop each, the only code that changes a table or a tournament."""
