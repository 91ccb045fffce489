"""The websocket: frames and transport, the client protocol's messages, one connection each."""
