"""The browser client: static files (``static/``) the card room server serves at ``/``.

The client is plain ES modules with no build step; docs/web.md describes it.
"""
