"""REST: one router per resource, the cookie-to-account dependency, one error type and handler."""
