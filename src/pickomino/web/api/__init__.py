"""The HTTP API, one router per resource; :func:`pickomino.web.app.create_app` assembles them."""
