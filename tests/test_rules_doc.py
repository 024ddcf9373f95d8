"""The rules (src/pickomino/i18n/en/rules.md, the English text the translations follow), the
code and the tests stay in step.

Every rule id the code cites (in messages, catalogues, comments and docstrings) must be a
linkable anchor of the rules, and every rule and worked case there must be named by a test.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "src" / "pickomino" / "i18n" / "en" / "rules.md"
CITED = re.compile(r"\b[RC]\d+[a-z]?\b")
ANCHOR = re.compile(r'<a id="([RC]\d+[a-z]?)"></a>')


def anchors() -> list[str]:
    return ANCHOR.findall(RULES_DOC.read_text(encoding="utf-8"))


def ids_in(paths) -> dict[str, set[Path]]:
    """The ids ``R7``, ``R11c``, ``C4``, ... cited in these files, with where."""
    found: dict[str, set[Path]] = {}
    for path in paths:
        for match in CITED.findall(path.read_text(encoding="utf-8")):
            found.setdefault(match, set()).add(path.relative_to(ROOT))
    return found


def source_files():
    return (p for p in (ROOT / "src").rglob("*") if p.suffix in (".py", ".js", ".html", ".json"))


def test_rules_doc_has_every_rule_and_case_once_in_order():
    expected = [f"R{n}" for n in range(1, 11)]
    expected += ["R11", "R11a", "R11b", "R11c"] + [f"R{n}" for n in range(12, 22)]
    expected += [f"C{n}" for n in range(1, 12)]
    assert anchors() == expected


def test_every_rule_cited_in_the_code_and_docs_is_in_the_rules_doc():
    documented = set(anchors())
    cited = ids_in([*source_files(), ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
    missing = {
        rule: sorted(map(str, where))
        for rule, where in cited.items()
        if rule.startswith("R") and rule not in documented
    }
    assert not missing, f"cited but not in the rules: {missing}"


def test_every_rule_and_case_of_the_rules_doc_is_named_by_a_test():
    tests = [p for p in (ROOT / "tests").rglob("*.py") if p.name != Path(__file__).name]
    named = ids_in(tests)
    # A sub-rule is named by its own id: a test of R11a does not count for R11, nor back.
    unnamed = [rule for rule in anchors() if rule not in named]
    assert not unnamed, f"no test names {unnamed} of the rules"
