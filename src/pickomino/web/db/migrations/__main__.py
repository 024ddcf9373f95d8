"""``python -m pickomino.web.db.migrations "what changes"``: write the next revision from the
tables the code declares (see :func:`pickomino.web.db.migrations.new_revision`)."""

import sys

from pickomino.web.db.migrations import new_revision

if len(sys.argv) != 2:
    sys.exit('usage: python -m pickomino.web.db.migrations "what the revision changes"')
print(new_revision(sys.argv[1]))
