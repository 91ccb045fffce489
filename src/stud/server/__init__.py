"""The card room server: REST (``http``), the websocket (``ws``), the room and its actors,
trust, storage and the shared room (``cluster``); README.md here says where each change goes.

This is the one layer (with the command line) that does I/O. The app is assembled by
:func:`stud.server.app.create_app`; ``stud serve`` runs it under uvicorn.
"""
