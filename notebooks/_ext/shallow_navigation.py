"""The sidebar's navigation at most :data:`NAVIGATION_DEPTH` levels deep, computed without the pages it leaves out.

The theme (furo) asks Sphinx for the whole tree of pages in every page's sidebar.  The ~400 pages autosummary
writes (one per name, each linked from its subpackage's table) are left out of it: with them each page carried
~90 KB of navigation and the build's time grew with the square of its pages (1.67x the CPU of the build without
them).  Asking for fewer levels is not enough: Sphinx resolves (and copies) every toctree of the site for each
page and prunes the result to the depth asked afterwards, so each page still resolved the entries of all ~400
pages to show none of them, about half the build's CPU, and copied every section of every page it lists to keep
their titles only.  Here the navigation of a page reads, computed once, the tables of contents of the pages only
ever listed at the deepest level shown without their own toctrees (whose entries would be pruned anyway), and
those of every page as a navigation of titles only keeps them; the pages that lead to the page itself keep their
toctrees, so that the branch holding it is still marked current.  The site comes out byte for byte the same
(``shallow_navigation_pruned = False`` in the configuration turns all this off; ``tests/test_docs.py`` builds a
small site both ways and compares them).
"""

from __future__ import annotations

import posixpath
from typing import Any

from sphinx.application import Sphinx

#: Levels of the navigation the theme puts in every page's sidebar: the pages and the API's page per subpackage.
NAVIGATION_DEPTH = 2

#: The tables of contents the navigation reads instead of Sphinx's (see :func:`pruned_tocs`): the pages listed only
#: at its deepest level or below, without their toctrees.
_PRUNED_TOCS: dict[str, Any] = {}
#: The same for a navigation of titles only (what the theme asks for), by whether the page's toctrees are kept.
_TITLES: dict[bool, dict[str, Any]] = {True: {}, False: {}}
#: The pages the navigation may show (listed at its depth or above somewhere), and the navigations written so far,
#: by what they depend on (see :func:`shallow_navigation`).
_SHOWN: set[str] = set()
_NAVIGATIONS: dict[tuple, str] = {}


def _least_depths(env: Any) -> dict[str, int]:
    """Each page's least depth in the tree of toctrees (the root page 0)."""
    depth = {env.config.root_doc: 0}
    todo = [env.config.root_doc]
    while todo:  # breadth first
        doc = todo.pop(0)
        for child in env.toctree_includes.get(doc, ()):
            if child not in depth:
                depth[child] = depth[doc] + 1
                todo.append(child)
    return depth


def _titles_only(toc: Any, toctrees: bool) -> Any:
    """``toc`` as a navigation of titles only keeps it: each top-level title, and under it the page's toctrees
    (``toctrees``) or nothing; None where the page's table of contents is not plain (``only`` directives, a
    ``tocdepth``, a toctree above its first title), left to Sphinx."""
    from docutils import nodes
    from sphinx import addnodes

    if any(True for _ in toc.findall(addnodes.only)) or not all(isinstance(i, nodes.list_item) for i in toc):
        return None
    toc = toc.deepcopy()
    for item in toc.children:  # as Sphinx's titles_only does, on the page's whole table of contents
        if len(item) > 1:
            subtrees = list(item.findall(addnodes.toctree)) if toctrees else []
            if subtrees:
                item[1][:] = subtrees
            else:
                item.pop(1)
    return toc


def pruned_tocs(app: Sphinx, env: Any) -> None:
    """The tables of contents the navigation reads (once the pages are read, for every page written).

    The pages listed only at depth ``shallow_navigation_depth`` or below, without their toctrees (whose entries
    lie deeper than the navigation goes); and every page as a navigation of titles only keeps it: its title, and
    its toctrees where they may show.
    """
    from sphinx import addnodes

    _PRUNED_TOCS.clear()
    for titles in _TITLES.values():
        titles.clear()
    _SHOWN.clear()
    _NAVIGATIONS.clear()
    if not app.config.shallow_navigation_pruned:
        return
    for doc, level in _least_depths(env).items():
        if doc not in env.tocs:
            continue
        if level <= app.config.shallow_navigation_depth:
            _SHOWN.add(doc)
        deep = level >= app.config.shallow_navigation_depth and bool(env.toctree_includes.get(doc))
        if deep:
            toc = env.tocs[doc].deepcopy()
            for node in list(toc.findall(addnodes.toctree)):
                node.parent.remove(node)
            _PRUNED_TOCS[doc] = toc
        if env.metadata[doc].get("tocdepth", 0) == 0:
            for toctrees in (True, False) if deep else (True,):
                titles = _titles_only(env.tocs[doc], toctrees)
                if titles is not None:
                    _TITLES[toctrees][doc] = titles


def leading_to(includes: dict[str, list[str]], docname: str) -> set[str]:
    """Every page whose toctrees lead to ``docname``, directly or not.

    >>> sorted(leading_to({"index": ["a", "b"], "a": ["c"], "b": ["c"], "c": ["d"]}, "d"))
    ['a', 'b', 'c', 'index']
    """
    parents: dict[str, set[str]] = {}
    for parent, children in includes.items():
        for child in children:
            parents.setdefault(child, set()).add(parent)
    found: set[str] = set()
    todo = [docname]
    while todo:
        for parent in parents.get(todo.pop(), ()):
            if parent not in found:
                found.add(parent)
                todo.append(parent)
    return found


def shallow_navigation(app: Sphinx, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    """The page's ``toctree`` function, its depth at most ``shallow_navigation_depth`` (the theme asks for all),
    reading the tables of contents of :func:`pruned_tocs` for the pages that do not lead to this one.

    A page the navigation cannot show (one of ~400 autosummary pages, a page of highlighted source) changes it
    only by the branches it marks current, those of the pages that lead to it, and by its folder (the links are
    relative): such pages share one navigation per set of pages leading to them and folder, written once.
    """
    del templatename, doctree
    toctree = context.get("toctree")
    if toctree is None:
        return
    env = app.env
    most = app.config.shallow_navigation_depth

    def shallow(**kwargs: Any) -> str:
        depth = int(kwargs.get("maxdepth", -1))
        kwargs["maxdepth"] = most if depth < 1 else min(depth, most)
        if not app.config.shallow_navigation_pruned:
            return toctree(**kwargs)
        whole = leading_to(env.toctree_includes, pagename)
        key = (
            pagename if pagename in _SHOWN else None,
            frozenset(whole),
            posixpath.dirname(pagename),
            tuple(sorted((name, repr(value)) for name, value in kwargs.items())),
        )
        if key in _NAVIGATIONS:
            return _NAVIGATIONS[key]
        tocs = env.tocs
        pruned = {doc: toc for doc, toc in _PRUNED_TOCS.items() if doc not in whole}
        if kwargs.get("titles_only") and not kwargs.get("collapse", True):  # the theme's navigation
            titles = {**_TITLES[True], **{doc: toc for doc, toc in _TITLES[False].items() if doc not in whole}}
            env.tocs = {**tocs, **pruned, **titles}
        else:
            env.tocs = {**tocs, **pruned}
        try:
            _NAVIGATIONS[key] = toctree(**kwargs)
        finally:
            env.tocs = tocs
        return _NAVIGATIONS[key]

    context["toctree"] = shallow


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("shallow_navigation_depth", NAVIGATION_DEPTH, "html", int)
    app.add_config_value("shallow_navigation_pruned", True, "html", bool)
    app.connect("env-updated", pruned_tocs)
    app.connect("html-page-context", shallow_navigation, priority=400)  # before the theme's handler (500) asks
    return {"parallel_read_safe": True, "parallel_write_safe": True}
