"""`python -m pickomino` is the `pickomino` command."""

from pickomino.cli import main

main()
