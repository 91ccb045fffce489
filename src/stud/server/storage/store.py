"""The room's storage operations in one object: accounts and sessions, the chip ledger,
tables and hands, each part in its own module.

Every method takes an open connection inside a transaction, so the caller (the
:class:`~stud.server.storage.database.Database` writer) decides what commits
together. Chips move only through :meth:`Store.post`, whose entries sum to
zero: the ledger's total never changes, and every balance is a sum over it.
Tournaments (stud.server.storage.tourneys) and fencing tokens
(stud.server.storage.fences) are functions over the same connection.
"""

from __future__ import annotations

from stud.server.storage.hands import Hands
from stud.server.storage.tables import Tables


class Store(Hands, Tables):
    """Storage operations: :class:`~stud.server.storage.accounts.Accounts`,
    :class:`~stud.server.storage.ledger.Ledger`, :class:`~stud.server.storage.hands.Hands`
    and :class:`~stud.server.storage.tables.Tables`, each a part of the one object its
    callers hold; stateless apart from the cached house account id and the
    :attr:`fence` (:class:`~stud.server.storage.writes.FencedWrites`)."""
