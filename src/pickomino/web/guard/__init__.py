"""The server's edge with strangers: connection deadlines and shares, socket limits, security
headers."""
