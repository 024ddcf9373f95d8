"""MkDocs hooks: the repository's own Markdown files that the docs link to, as site pages.

The rules (one ``rules.md`` per language, read by the web app too) and ``benchmarks/README.md``
stay where the code keeps them; the pages in ``docs/`` link to them relatively, which GitHub
follows. For the site, each is added as a generated page and those links are pointed at it,
so ``mkdocs build --strict`` resolves every link without a copy in ``docs/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "de", "fr", "nl", "fi", "da")

#: a repository file linked from docs/ -> its page in the site
PAGES = {f"src/pickomino/i18n/{code}/rules.md": f"rules/{code}.md" for code in LANGUAGES}
PAGES["benchmarks/README.md"] = "benchmarks.md"


def on_files(files: Files, config: Any) -> Files:
    """Add each linked repository file as a page of the site."""
    for source, page in PAGES.items():
        files.append(File.generated(config, page, content=(ROOT / source).read_text()))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Point a top-level page's links to a repository file at its generated page."""
    if "/" in page.file.src_uri:
        return markdown
    for source, target in PAGES.items():
        markdown = markdown.replace(f"](../{source}", f"]({target}")
    return markdown
