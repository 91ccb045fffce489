"""One room on several ``stud serve`` processes: PostgreSQL for what lasts, Redis for what moves.

Imported only when a Redis URL is given (``STUD_REDIS_URL``): a room of one
process (``make serve``) never loads this package nor the redis client.
See docs/deploy.md for running it and :mod:`stud.server.cluster.coordination`
for how (it implements :class:`stud.server.room.coordination.Coordination`).
"""
