"""The card room server: accounts, storage, table actors and the websocket protocol.

This is the one layer (with the command line) that does I/O. The app is built
by :func:`stud.server.app.create_app`; ``stud serve`` runs it under uvicorn.
"""
