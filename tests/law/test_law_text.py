"""Tests for sloat_core.law.text: the parsed Article IX text and citations into it."""

import hashlib
import re
import string

import pytest

from sloat_core.law import text as law
from sloat_core.errors import SloatInputError

EXPECTED_SECTIONS = {
    "402-45": "Environmental constraints.",
    "402-46": "Ramapo River Sole Source Aquifer Critical Environmental Area.",
    "402-47": "(Reserved)",
    "402-48": "Cluster development.",
    "402-49": "Federal flood hazard area regulations.",
    "402-50": "Rockland County stream regulations.",
    "402-51": "Wild, Scenic and Recreational River regulations.",
    "402-52": "Excavations, soil mining, quarrying.",
    "402-53": "Tree preservation; shade trees.",
    "402-54": "Highlands biodiversity study.",
    "402-55": "Steep slope protection.",
    "402-56": "Dry sewers.",
    "402-57": "Wetlands and watercourses.",
    "402-58": "Stormwater management.",
    "402-59": "(Reserved)",
}


def test_every_section_listed_with_title_in_order():
    got = [(s.number, s.title) for s in law.sections()]
    assert got == list(EXPECTED_SECTIONS.items())
    assert law.sections()[0].citation == "§ 402-45"


@pytest.mark.parametrize(
    "citation, phrase",
    [
        ("§ 402-57J(4)", "90 days prior"),
        ("§ 402-45A(2)(b)", "in excess of 40%"),
        ("§ 402-55H(3)", "one month prior"),
        ("§ 402-45A(2)(a)", "steep slopes in excess of 25%"),
        ("§ 402-45A(3)", "rock outcrops in excess of 50 square feet"),
        ("§ 402-48C(1)", "Slopes over 15% on 25% or more"),
        ("§ 402-48F", "10,000 square feet"),
        ("§ 402-48G(3)(e)[5]", "pro rata share"),
        ("§ 402-46", "sole source aquifer"),
        ("§ 402-55", "Steep slope protection."),
        ("§ 402-57H", "Normal ground maintenance"),
        ("§ 402-57L", "within 62 days of a complete application"),
        ("§ 402-57P(2)", "1.5 to one"),
        ("§ 402-58E(2)(b)", "five or more acres"),
        ("§ 402-58H(1)(a)[8]", "landscaping in public areas"),
        ("§ 402-52", "for commercial sale is prohibited"),
    ],
)
def test_citation_resolves_to_text_with_phrase(citation, phrase):
    assert phrase in law.clause(citation)
    assert law.citation_exists(citation)


def test_clause_includes_children_and_excludes_siblings():
    h = law.clause("§ 402-55H")
    assert h.startswith("H. Duration of permit.")
    assert "one month prior" in h  # from child H(3)
    assert "Standards for approval" not in h  # sibling I
    assert "90 days prior" not in law.clause("§ 402-55H(3)")


def test_range_is_run_of_siblings():
    text = law.clause("§ 402-57P(1)(a)-(c)")
    assert text.startswith("(a) The proposed activity is compatible")
    assert "no feasible on-site alternative" in text
    assert text.rstrip().endswith("wetland/watercourse buffer.")
    assert "(2) Mitigation plan requirements" not in text
    assert text == "\n\n".join(law.clause(f"§ 402-57P(1)({x})") for x in "abc")


def test_letter_i_after_h_is_a_letter_not_a_roman_numeral():
    # (i) follows (h) as a lettered item in § 402-57K(5) and § 402-58E(1)
    assert law.clause("§ 402-57K(5)(i)").startswith("(i) Where creation of a stormwater")
    labels = [c.path[-1] for c in law.node("§ 402-58E(1)").children]
    assert labels == [f"({x})" for x in string.ascii_lowercase[: len(labels)]]
    assert labels[-1] == "(p)"


def test_notes_are_not_clauses():
    # "[Amended ...]" after § 402-57I(11) must not end (11) or become a clause; (12) follows it.
    i11 = law.node("§ 402-57I(11)")
    assert i11.notes and i11.notes[0].startswith("[Amended")
    assert "[Amended" not in i11.text
    assert law.clause("§ 402-57I(12)").startswith("(12) And any agricultural activity")
    # "[1] Editor's Note" under § 402-58G(4) is a note, not an item [1]
    g4 = law.node("§ 402-58G(4)")
    assert g4.children == ()
    assert any("Editor's Note" in n for n in g4.notes)
    assert not law.citation_exists("§ 402-58G(4)[1]")
    for n in law.all_clauses():
        assert "[Amended" not in n.text


@pytest.mark.parametrize(
    "bad",
    ["§ 402-99", "§ 402-45Z", "hello", "", "§ 402-94", "§ 402-45A(9)", "§ 402-57J(4)(a)",
     "§ 402-57P(1)(c)-(a)", "§ 402-57P(1)(a)-(z)", "§ 617.7", "402-57P(1)(a)-(3)"],
)
def test_bad_citations_raise(bad):
    with pytest.raises(SloatInputError):
        law.clause(bad)
    assert law.citation_exists(bad) is False


def test_bad_citation_message_is_one_plain_sentence():
    with pytest.raises(SloatInputError) as exc:
        law.clause("§ 402-99")
    msg = str(exc.value)
    assert "402-99" in msg and msg.endswith(".") and msg.count(". ") == 0


@pytest.mark.parametrize(
    "written, canonical",
    [
        ("402-57J(4)", "§ 402-57J(4)"),
        ("§402-57 J (4)", "§ 402-57J(4)"),
        ("§ 402-57j(4)", "§ 402-57J(4)"),
        ("§§ 402-45A(2)(b)", "§ 402-45A(2)(b)"),
        ("Section 402-48G(3)(e)[5]", "§ 402-48G(3)(e)[5]"),
        ("§ 402-57P(1)(a) - (c)", "§ 402-57P(1)(a)-(c)"),
        ("§ 402-57P(1)(a)–(c)", "§ 402-57P(1)(a)-(c)"),
        ("402-46.", "§ 402-46"),
    ],
)
def test_normalize_citation(written, canonical):
    assert law.normalize_citation(written) == canonical
    assert law.clause(written) == law.clause(canonical)


def test_parse_citation_tuple():
    c = law.parse_citation("§ 402-48G(3)(e)[5]")
    assert c == ("402-48", ("G", "(3)", "(e)", "[5]"), None)
    assert law.parse_citation("§ 402-57P(1)(a)-(c)").range_end == "(c)"


def test_citation_anchor_is_stable_url_safe_and_unique():
    assert law.citation_anchor("§ 402-57J(4)") == "402-57J-4"
    assert law.citation_anchor("402-57 J (4)") == "402-57J-4"
    assert law.citation_anchor("§ 402-46") == "402-46"
    anchors = [law.citation_anchor(n.citation) for n in law.all_clauses()]
    assert len(anchors) == len(set(anchors))
    assert all(re.fullmatch(r"[A-Za-z0-9-]+", a) for a in anchors)


def test_round_trip_every_node():
    nodes = list(law.all_clauses())
    assert len(nodes) > 400
    for n in nodes:
        assert law.clause(n.citation) == n.text
        assert law.node(n.citation) is n
        assert law.normalize_citation(n.citation) == n.citation


def test_every_clause_reachable_and_every_line_kept():
    """Each non-empty line after the title is a clause line, a paragraph, or a note: nothing lost."""
    lines = [ln.strip() for ln in law.law_text().splitlines() if ln.strip()][1:]
    kept = []
    for root in law.law_tree():
        stack = [root]
        while stack:
            n = stack.pop()
            kept.extend(n.notes)
            for p in n.parts:
                if isinstance(p, str):
                    kept.append(p)
            stack.extend(n.children)
    assert sorted(kept) == sorted(lines)


def test_sibling_labels_run_in_sequence_and_levels_nest():
    seq = {
        "upper": list(string.ascii_uppercase),
        "paren_num": [f"({i})" for i in range(1, 40)],
        "paren_letter": [f"({c})" for c in string.ascii_lowercase],
        "bracket": [f"[{i}]" for i in range(1, 40)],
    }
    order = ["upper", "paren_num", "paren_letter", "bracket"]
    for n in law.all_clauses():
        labels = [c.path[-1] for c in n.children]
        if not labels:
            continue
        kind = order[len(n.path)]  # children sit exactly one level down
        assert labels == seq[kind][: len(labels)], n.citation


def test_quote_in_law_whitespace_insensitive_whole_words():
    assert law.quote_in_law("in excess of 40%")
    assert law.quote_in_law("in  excess\nof 40%")
    assert not law.quote_in_law("0 days prior")  # part of "90 days prior"
    assert not law.quote_in_law("in excess of 45%")
    assert not law.quote_in_law("IN EXCESS OF 40%")
    with pytest.raises(SloatInputError):
        law.quote_in_law("   ")


def test_quote_in_clause_and_find_quote():
    assert law.quote_in_clause("at least 90 days prior", "§ 402-57J(4)")
    assert not law.quote_in_clause("at least 90 days prior", "§ 402-57J(3)")
    assert law.find_quote("in excess of 40%") == "§ 402-45A(2)(b)"
    assert law.find_quote("pro rata share") == "§ 402-48G(3)(e)[5]"
    assert law.find_quote("Steep slope protection.") == "§ 402-55"
    assert law.find_quote("nowhere in this law") is None


def test_law_text_sha256_matches_file():
    assert law.LAW_TEXT_SHA256 == hashlib.sha256(law.LAW_PATH.read_bytes()).hexdigest()
    assert len(law.LAW_TEXT_SHA256) == 64


def test_docstring_examples_run():
    import doctest

    from sloat_core.law import text as module

    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
