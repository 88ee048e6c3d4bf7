"""What a notebook shows of a problem, its solutions, a count with its statistics and a
ZDD family (``_repr_html_`` / ``_repr_svg_``, rendered by :mod:`excover.display`).

Each display is parsed as XML (the fragments are well-formed) and its figures are
checked against the same figures computed another way: the count by ``.count()`` of
another method or by brute force over subsets, the names from the lists the problem
was built from, a family's sets from the sets it was built from. Item names that are
HTML (``<b>&``) must come out escaped, and a large instance must give a small display.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import excover as xc
from excover import counting, display
from excover.names import METHOD_TRAITS, METHODS
from excover.puzzles import queens
from excover.solving import orchestrate
from excover.solving.request import Request
from excover.solving.solutions import Solutions

SVG = "{http://www.w3.org/2000/svg}"

#: An item name that is HTML: a display must show it as text.
NASTY = "<b>&"


def _page(fragment: str) -> ET.Element:
    """The fragment parsed (it must be well-formed XML)."""
    return ET.fromstring(fragment)


def _text(fragment: str) -> str:
    """The text a reader sees: the fragment's text nodes, joined."""
    return "".join(_page(fragment).itertext())


def _rows(page: ET.Element, table: int) -> list[list[str]]:
    """The cells (their text) of the body rows of table number ``table`` of ``page``."""
    found = page.findall(".//table")[table]
    return [["".join(td.itertext()) for td in tr.findall("td")] for tr in found.iter("tr")][
        len(found.findall("thead/tr")) :
    ]


def _small() -> tuple[xc.ExactCover, list[list[str]]]:
    """A problem with an HTML item name, a color and a multiplicity, and its options."""
    options = [[NASTY, "x:red"], ["b", "c", "x:red"], [NASTY, "b"], ["c"], ["b", "x:blue"]]
    p = xc.ExactCover(primary=[NASTY, "b", "c"], secondary=["x"])
    for option in options:
        p.add_option(option)
    p.set_multiplicity("c", 1, 2)
    return p, options


def _brute_force(p: xc.ExactCover) -> list[list[int]]:
    """Every solution, by checking each subset of options against the definition."""
    return [
        list(chosen)
        for size in range(p.n_options + 1)
        for chosen in itertools.combinations(range(p.n_options), size)
        if p.is_solution(chosen)
    ]


def test_a_problem_shows_its_items_escaped_and_its_rows_as_a_matrix() -> None:
    p, options = _small()
    html = p._repr_html_()
    assert NASTY not in html and "&lt;b&gt;&amp;" in html  # escaped, never raw
    text = _text(html)
    assert "ExactCover: 3 primary items, 1 secondary item, 5 options" in text
    assert f"{NASTY}, b, c" in text and "c: 1..2" in text and "red, blue" in text
    rows = _rows(_page(html), 1)
    columns = [NASTY, "b", "c", "x"]
    expected = []
    for k, option in enumerate(options):
        cells = [""] * len(columns)
        for item in option:
            name, _, color = item.partition(":")
            cells[columns.index(name)] = color or "1"
        expected.append([str(k), *cells])
    assert rows == expected


def test_a_wide_problem_lists_each_option_s_items() -> None:
    p = queens.queens(8)  # 42 items: wider than a matrix is drawn
    page = _page(p._repr_html_())
    rows = _rows(page, 1)
    assert rows == [[str(k), " ".join(p.option_items(k))] for k in range(display.ROWS)]
    text = "".join(page.itertext())
    assert f"… and {p.n_options - display.ROWS} more options" in text
    assert f"{p.n_primary} primary items, {p.n_secondary} secondary items" in text
    declared = p.declared_symmetries()
    assert declared is not None and f"{len(declared)} generators" in text


def test_declared_item_mappings_are_shown_escaped() -> None:
    p = xc.ExactCover(primary=[NASTY, "b"])
    p.add_option([NASTY])
    p.add_option(["b"])
    p.declare_symmetries([{NASTY: "b", "b": NASTY}])
    html = p._repr_html_()
    assert NASTY not in html
    assert f"1 generator: items {NASTY}→b, b→{NASTY}" in _text(html)


def test_a_large_problem_gives_a_small_display() -> None:
    n_items, n_options = 3000, 200_000
    rows = ((k % 2000, 2000 + (7 * k + 1) % 1000) for k in range(n_options))
    p = xc.ExactCover.from_sparse(rows, n_items, primary=2000)
    p.set_multiplicity("5", 0, 3)
    html = p._repr_html_()
    assert len(html) < 12_000
    text = _text(html)
    assert "2,000 primary items, 1,000 secondary items, 200,000 options" in text
    assert f"… and {n_options - display.ROWS:,} more options" in text
    assert f"({2000 - display.NAMES:,} more)" in text and "5: 0..3" in text
    assert len(_rows(_page(html), 1)) == display.ROWS


def test_all_is_the_list_of_solutions_and_shows_them_with_their_items() -> None:
    p, _ = _small()
    found = p.all()
    assert isinstance(found, Solutions) and isinstance(found, list)
    assert found == list(p.solutions()) and found.problem is p
    assert sorted(sorted(s) for s in found) == sorted(_brute_force(p))
    html = found._repr_html_()
    assert NASTY not in html
    text = _text(html)
    assert f"{p.count(method='zdd')} solutions" in text
    rows = _rows(_page(html), 0)
    for number, (row, solution) in enumerate(zip(rows, found, strict=True)):
        items = "".join(" ".join(p.option_items(k)) for k in solution)  # <br/> joins lines
        assert row == [str(number), " ".join(map(str, solution)), items]


def test_a_long_list_of_solutions_shows_its_first_rows_and_how_many_more() -> None:
    p = queens.queens(8)
    found = p.all()
    total = p.count(method="zdd")
    assert len(found) == total == 92  # 92: the eight queens, a published figure
    text = _text(found._repr_html_())
    assert f"{total} solutions" in text and f"… and {total - display.ROWS} more solutions" in text
    assert len(_rows(_page(found._repr_html_()), 0)) == display.ROWS
    assert p.all(limit=3) == found[:3]
    assert "0 solutions" in _text(Solutions(p)._repr_html_())


def test_a_search_and_its_stats_show_the_count_and_the_nodes() -> None:
    p = queens.queens(6)
    search = p.search(engine="dlx")
    total = search.count()
    assert total == p.count(method="zdd")
    stats = search.stats
    for html in (search._repr_html_(), stats._repr_html_()):
        facts = dict(row for row in _rows(_page(html), 0) if len(row) == 2)
        assert facts["solutions"] == f"{total:,}"
        assert facts["nodes"] == f"{stats.nodes:,}" and facts["updates"] == f"{stats.updates:,}"
        assert facts["engine"] == "dlx" and facts["complete"] == "yes"
    assert "&lt;ExactCover:" in search._repr_html_()


def test_a_count_result_shows_the_count_route_and_work() -> None:
    p = queens.queens(8)
    found = counting.count(p)
    html = found._repr_html_()
    facts = dict(_rows(_page(html), 0))
    assert facts["count"] == f"{p.count(method='zdd'):,}" and facts["route"] == found.route
    assert facts["method"] == found.method and facts["reason"] == found.reason
    work = _rows(_page(html), 1)
    assert [row[0] for row in work] == list(found.work)
    assert [row[2] for row in work] == [f"{done.nodes:,}" for done in found.work.values()]


def test_an_outcome_shows_the_count_method_engine_and_statistics() -> None:
    p = queens.queens(7)
    for method in (m for m in METHODS if not METHOD_TRAITS[m].solver):  # sat: the oracle
        outcome = orchestrate.count(p, Request(method))
        facts = dict(_rows(_page(outcome._repr_html_()), 0))
        assert facts["count"] == str(p.count(method="sat")) == "40"
        assert facts["method"] == outcome.method and facts["engine"] == outcome.engine
        if outcome.route is not None:
            assert facts["route"] == outcome.route["name"]


def test_a_family_shows_its_count_nodes_first_sets_and_diagram() -> None:
    sets = [{1, 2}, {2, 3}, {3}, set(), {1, 4, 5}]
    f = xc.Family.from_sets(sets)
    html = f._repr_html_()
    page = _page(html)
    assert f"Family: {len(sets)} sets, {f.size} nodes" in "".join(page.itertext())
    shown = [row[0] for row in _rows(page, 0)]
    assert sorted(shown) == sorted("{" + ", ".join(map(str, sorted(s))) + "}" for s in sets)
    svg = page.find(f".//{SVG}svg")
    assert svg is not None
    assert len(svg.findall(f"{SVG}circle")) == f.size
    assert len(svg.findall(f"{SVG}path")) == 2 * f.size  # a lo and a hi edge per node
    dashed = [e for e in svg.findall(f"{SVG}path") if e.get("stroke-dasharray")]
    assert len(dashed) == f.size
    diagram = f._repr_svg_()
    assert diagram is not None and ET.tostring(ET.fromstring(diagram)) == ET.tostring(svg)


def test_a_large_family_lists_its_first_sets_and_draws_no_diagram() -> None:
    p = queens.queens(8)
    f = p.zdd()
    assert f.size > display.DIAGRAM_NODES and f._repr_svg_() is None
    html = f._repr_html_()
    page = _page(html)
    text = "".join(page.itertext())
    assert f"{p.count(method='search')} sets, {f.size:,} nodes" in text
    shown = [row[0] for row in _rows(page, 0)]
    first = list(itertools.islice(f, display.ROWS))
    assert shown == ["{" + ", ".join(map(str, sorted(s))) + "}" for s in first]
    assert all(p.is_solution(s) for s in first)
    assert f"… and {92 - display.ROWS} more sets" in text and page.find(f".//{SVG}svg") is None


def test_the_empty_family_and_the_unit_family() -> None:
    empty = _text(xc.Family.empty()._repr_html_())
    assert "Family: 0 sets, 0 nodes" in empty and "empty family" in empty
    base = _page(xc.Family.base()._repr_html_())
    assert "Family: 1 set, 0 nodes" in "".join(base.itertext())
    assert _rows(base, 0) == [["{}"]]


def test_huge_counts_are_shortened() -> None:
    big = 3 * 10**400 + 7
    text = display.count_text(big)
    assert text == "3.000e+400 (401 digits)"
    assert display.count_text(10**display.DIGITS - 1).count(",") == (display.DIGITS - 1) // 3
    html = xc.Stats(solutions=big)._repr_html_()
    assert len(html) < 2000 and "401 digits" in html
