"""``/api/docs`` works with no internet: the page and every file it loads come from this
server, and it starts Swagger UI from a script file, so that a Content-Security-Policy
without inline scripts does not blank it."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from fastapi.testclient import TestClient

from pickomino.web import create_app


class Loads(HTMLParser):
    """The addresses a page loads (scripts, style sheets, icons) and its inline scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.inline_scripts = 0
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script":
            self._in_script = "src" not in found
            if found.get("src"):
                self.urls.append(str(found["src"]))
        elif tag == "link" and found.get("href"):
            self.urls.append(str(found["href"]))

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline_scripts += 1

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False


def test_the_docs_page_loads_only_this_servers_files_and_no_inline_script(tmp_path: Path):
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        page = client.get("/api/docs")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        loads = Loads()
        loads.feed(page.text)
        assert loads.inline_scripts == 0
        files = [url for url in loads.urls if not url.startswith("data:")]
        assert len(files) == 3, loads.urls  # Swagger UI's script and style, and our start
        kinds = {}
        for url in files:
            assert url.startswith("/") and not url.startswith("//"), url  # this server
            response = client.get(url)
            assert response.status_code == 200, url
            kinds[url.rsplit(".", 1)[1]] = response.headers["content-type"]
            assert "SwaggerUIBundle" in response.text or url.endswith(".css")
        assert kinds["css"].startswith("text/css")
        assert kinds["js"].split(";")[0] in ("text/javascript", "application/javascript")
        schema = client.get("/openapi.json").json()
        assert "/api/sheets/{sheet_id}/entries" in schema["paths"]
        assert client.get("/redoc").status_code == 404  # it would load ReDoc from a CDN
