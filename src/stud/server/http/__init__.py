"""REST: one router per resource (``accounts``, ``topups``, ``tables``, ``hands``, ``tournaments``,
``language``, ``health``); what they are given in ``deps`` (the room, the database, the
cookie → account step); one error type and its handlers in ``errors``."""
