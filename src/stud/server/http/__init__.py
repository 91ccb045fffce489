"""REST: one router per resource (``accounts``, ``topups``, ``tables``, ``hands``, ``imports``,
``equity``, ``tournaments``, ``language``, ``health``, ``admin``); what they are given in ``deps``
(the room, the database, the cookie → account step); one error type and its handlers in
``errors``; work too long for the event loop in ``offload``'s worker processes."""
