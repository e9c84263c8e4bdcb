"""A real structure tree for the documents: headings, paragraphs, lists, tables with header cells,
figures with their alternative text, the document's language and its title shown.

fpdf2 (the PDF library of :mod:`sloat_core.outputs.report` and :mod:`sloat_core.outputs.handout`) tags only
images (one flat ``/Figure`` per image under ``/Document``). :class:`TaggedFPDF` keeps fpdf2's output and
adds what PDF/UA and screen readers read:

* :meth:`TaggedFPDF.tag` wraps drawn content in a marked-content sequence (``/P <</MCID n>> BDC ... EMC``)
  and a structure element (``H1``, ``H2``, ``P``, ``LI``, ``TH``, ``TD`` ...) placed under the innermost
  open :meth:`TaggedFPDF.group` (``Sect``, ``L``, ``Table``, ``TR``), so the tree nests as the reader reads;
* an element that runs onto the next page is closed at the page's end and continues there under the same
  element (a marked-content reference on the new page);
* the footer, rules and repeated table headings are artifacts (``/Artifact BMC ... EMC``), not content;
* :class:`TaggedTable` is fpdf2's table with ``Table``/``TR``/``TH``/``TD``, header cells scoped to their
  column;
* :func:`new_tagged` sets ``/Lang`` and ``DisplayDocTitle``.

The classes it builds on are fpdf2's own (``fpdf.structure_tree``), which fpdf2 calls internal: the
version is pinned in requirements.txt, and ``tests/outputs/test_documents_structure.py`` reads the tree back with
pypdf, so a change in fpdf2 that breaks it fails a test.
"""

from __future__ import annotations

from contextlib import contextmanager

from fpdf import FPDF, ViewerPreferences
from fpdf.structure_tree import StructElem, StructureTreeBuilder
from fpdf.table import Table

__all__ = ["LANG", "TaggedFPDF", "TaggedTable", "set_document"]

#: The documents' language (BCP 47).
LANG = "en-US"


class _Elem(StructElem):
    """A structure element with an attribute dictionary (``/A``: a header cell's scope)."""

    __slots__ = ("a",)

    def __init__(self, *args, attrs: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.a = attrs


class _MarkedContentRef:
    """A structure element's content on another page than its own (``/Type /MCR``)."""

    def __init__(self, page, mcid: int):
        self.page, self.mcid = page, mcid

    def serialize(self, _security_handler=None, _obj_id=None) -> str:
        return f"<</Type /MCR /Pg {self.page.ref} /MCID {self.mcid}>>"


class _Tree(StructureTreeBuilder):
    """fpdf2's structure tree, nested: each element goes under the innermost open group."""

    def __init__(self, pdf: FPDF):
        super().__init__()
        self.pdf = pdf
        self.stack: list[StructElem] = []
        self.elems: list[StructElem] = []

    def parent(self) -> StructElem:
        return self.stack[-1] if self.stack else self.doc_struct_elem

    def spid(self, page_number: int) -> int:
        spid = self.spid_per_page_number.get(page_number)
        if spid is None:
            spid = self.spid_per_page_number[page_number] = len(self.spid_per_page_number)
        return spid

    def next_mcid_for_page(self, page_number):
        return len(self.struct_tree_root.parent_tree.nums[self.spid(page_number)])

    def new_elem(self, struct_type: str, *, page_number: int | None, mcid: int | None = None, title=None,
                 alt_text=None, attrs=None) -> StructElem:
        parent = self.parent()
        elem = _Elem(struct_type=struct_type, parent=parent, kids=[] if mcid is None else [mcid],
                     page_number=page_number, title=title, alt=alt_text, attrs=attrs)
        if page_number is not None and mcid is not None:
            elem.pg = self.pdf.pages[page_number]
        parent.k.append(elem)
        self.elems.append(elem)
        return elem

    def add_marked_content(self, page_number, struct_type, mcid=None, title=None, alt_text=None):
        """fpdf2's own entry (images, links): the element goes under the open group, like ours."""
        spid = self.spid(page_number)
        elem = self.new_elem(struct_type, page_number=page_number, mcid=mcid, title=title, alt_text=alt_text)
        if mcid is not None:
            self.struct_tree_root.parent_tree.nums[spid].append(elem)
        return elem, spid

    def continue_on(self, elem: StructElem, page_number: int) -> int:
        """The element goes on on ``page_number``: a new marked-content id there, referenced from it."""
        spid = self.spid(page_number)
        mcid = len(self.struct_tree_root.parent_tree.nums[spid])
        self.struct_tree_root.parent_tree.nums[spid].append(elem)
        elem.k.append(_MarkedContentRef(self.pdf.pages[page_number], mcid))
        self.pdf.pages[page_number].struct_parents = spid
        return mcid

    def empty(self):
        return not self.elems

    def __iter__(self):
        yield self.struct_tree_root
        yield self.doc_struct_elem
        yield self.struct_tree_root.parent_tree
        yield from self.elems


class TaggedFPDF(FPDF):
    """fpdf2's document with a nested structure tree (see the module's text)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.struct_builder = _Tree(self)
        self._open: tuple[StructElem, str] | None = None  # the leaf element whose content is being drawn
        self._artifact = 0

    @contextmanager
    def group(self, struct_type: str, *, attrs: str | None = None):
        """A grouping element (``Sect``, ``L``, ``Table``, ``TR``): what is tagged inside goes under it."""
        if self._artifact or self._open is not None:
            yield None
            return
        elem = self.struct_builder.new_elem("/" + struct_type, page_number=self.page, attrs=attrs)
        self.struct_builder.stack.append(elem)
        try:
            yield elem
        finally:
            self.struct_builder.stack.pop()

    @contextmanager
    def tag(self, struct_type: str, *, attrs: str | None = None, alt: str | None = None):
        """Content drawn inside is one structure element (``H1``, ``P``, ``LI``, ``TD`` ...)."""
        if self._artifact or self._open is not None:  # inside an artifact, or already in an element
            yield None
            return
        mcid = self.struct_builder.next_mcid_for_page(self.page)
        elem, spid = self.struct_builder.add_marked_content(self.page, "/" + struct_type, mcid=mcid, alt_text=alt)
        if attrs:
            elem.a = attrs
        self.pages[self.page].struct_parents = spid
        self._set_min_pdf_version("1.4")
        self._out(f"/{struct_type} <</MCID {mcid}>> BDC")
        self._open = (elem, struct_type)
        try:
            yield elem
        finally:
            self._open = None
            self._out("EMC")

    @contextmanager
    def artifact(self):
        """What is drawn inside is page furniture (rules, footers, repeated headings), not content."""
        if self._open is not None or self._artifact:
            self._artifact += 1
            try:
                yield
            finally:
                self._artifact -= 1
            return
        self._out("/Artifact BMC")
        self._artifact += 1
        try:
            yield
        finally:
            self._artifact -= 1
            self._out("EMC")

    def add_page(self, *args, **kwargs):
        """A page break inside an element closes its content on this page and continues it on the next."""
        open_ = self._open
        if open_ is not None:
            self._out("EMC")
            self._open = None
        super().add_page(*args, **kwargs)
        if open_ is not None:
            elem, struct_type = open_
            mcid = self.struct_builder.continue_on(elem, self.page)
            self._out(f"/{struct_type} <</MCID {mcid}>> BDC")
            self._open = open_

    def _render_footer(self):
        open_ = self._open
        self._open = None  # the footer is drawn as an artifact, outside any element
        self._out("/Artifact BMC")
        self._artifact += 1
        try:
            super()._render_footer()
        finally:
            self._artifact -= 1
            self._out("EMC")
            self._open = open_


def set_document(pdf: FPDF, title: str) -> None:
    """The title (shown in the window's title bar: ``DisplayDocTitle``) and the language (``/Lang``)."""
    pdf.set_title(title)
    pdf.set_lang(LANG)
    pdf.viewer_preferences = ViewerPreferences(display_doc_title=True)


_SCOPE_COLUMN = "<</O /Table /Scope /Column>>"


class TaggedTable(Table):
    """fpdf2's table tagged ``Table`` / ``TR`` / ``TH`` (scoped to its column) / ``TD``; the heading rows
    repeated on a following page are artifacts."""

    def render(self):
        self._rendered_heads: set[int] = set()
        with self._fpdf.group("Table"):
            super().render()

    def _render_table_row(self, i, row_layout_info, cell_x_positions, **kwargs):
        if i < self._num_heading_rows and i in self._rendered_heads:
            with self._fpdf.artifact():
                return super()._render_table_row(i, row_layout_info, cell_x_positions, **kwargs)
        if i < self._num_heading_rows:
            self._rendered_heads.add(i)
        with self._fpdf.group("TR"):
            return super()._render_table_row(i, row_layout_info, cell_x_positions, **kwargs)

    def _render_table_cell(self, i, j, cell, row_height, cell_height_info=None, cell_x_positions=None, **kwargs):
        if cell_height_info is None:  # measuring only: nothing is drawn
            return super()._render_table_cell(i, j, cell, row_height, cell_height_info, cell_x_positions,
                                              **kwargs)
        head = i < self._num_heading_rows
        with self._fpdf.tag("TH" if head else "TD", attrs=_SCOPE_COLUMN if head else None):
            return super()._render_table_cell(i, j, cell, row_height, cell_height_info, cell_x_positions,
                                              **kwargs)

