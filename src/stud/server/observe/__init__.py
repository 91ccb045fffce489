"""What an operator sees of a running room: Prometheus metrics (``metrics``) and the
operator's log lines, plain or JSON (``logs``). A leaf: any part of the server may use it."""
