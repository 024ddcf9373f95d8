"""What the app answers: the HTTP API (a router per resource), the pages, a game's WebSocket,
and refusals for every error; :func:`pickomino.web.app.create_app` assembles them."""
