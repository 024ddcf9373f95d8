"""A PostgreSQL URL without its driver installed: one clear line saying what to install."""

import sys

from click.testing import CliRunner

from pickomino.cli import main


def test_serve_without_psycopg_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # `import psycopg` now fails
    result = CliRunner().invoke(
        main, ["serve", "--database", "postgresql://ann@localhost/pickomino"]
    )
    assert result.exit_code == 1
    assert f"{sys.executable} -m pip install 'psycopg[binary]'" in result.output
    assert "driver psycopg is not installed" in result.output
    assert "Traceback" not in result.output
