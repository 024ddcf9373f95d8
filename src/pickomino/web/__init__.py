"""Pickomino in the browser: ``pickomino serve`` (see :mod:`pickomino.web.app`)."""

from pickomino.web.app import create_app

__all__ = ["create_app"]
