"""The server's edge with strangers: connection deadlines and shares, socket limits, a bound
on request bodies, security headers."""
