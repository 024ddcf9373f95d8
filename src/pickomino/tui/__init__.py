"""`pickomino play`: people against bots (or each other) in the terminal.

``setup`` builds a session from the command line or a saved record, ``session`` turns
commands into engine moves, ``plain`` plays it line by line, ``app`` full screen (Textual).
"""
