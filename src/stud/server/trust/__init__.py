"""Trust: what names may be, passwords and failed logins, per-account limits, rate limits."""
