"""Sphinx configuration of the regkit documentation.

Build it from the repository root (``pip install -e ".[docs]"`` first)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The API reference is generated from the numpydoc docstrings (autodoc + autosummary + numpydoc); the
notebooks under ``notebooks/`` are rendered by myst-nb from their stored outputs, never executed. Sphinx
reads only inside ``docs/``, so the notebooks are copied to ``docs/notebooks/`` (git-ignored) first.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from sphinx.pycode import ModuleAnalyzer

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # the checkout's regkit, also when it is not installed editable
sys.path.insert(0, str(DOCS / "_ext"))

from regkit_notebooks import WIDGET_MIME_TYPES, without_widget_state  # noqa: E402

import regkit  # noqa: E402

# -- Project -------------------------------------------------------------------------------------------

project = "regkit"
author = "regkit developers"
copyright = "regkit developers, MIT licence"
release = regkit.__version__
version = release

# -- Extensions ----------------------------------------------------------------------------------------

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_nb",  # Markdown pages (it brings myst-parser) and notebooks
    "regkit_api",  # docs/_ext/regkit_api.py: each API page covers its package's __all__
    "regkit_overview",  # docs/_ext/regkit_overview.py: the names in a package's overview table are links
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]

# -- Notebooks: copied in, rendered from their stored outputs -----------------------------------------

NOTEBOOKS_SOURCE = ROOT / "notebooks"
NOTEBOOKS_COPY = DOCS / "notebooks"  # git-ignored; rewritten by every build


def _copy_notebooks() -> None:
    """Mirror ``notebooks/*.ipynb`` into ``docs/notebooks/`` (a file is rewritten only when it changed,
    so incremental builds stay incremental; a notebook removed from ``notebooks/`` goes here too)."""
    NOTEBOOKS_COPY.mkdir(exist_ok=True)
    wanted = {p.name: p for p in sorted(NOTEBOOKS_SOURCE.glob("*.ipynb"))}
    for stale in NOTEBOOKS_COPY.glob("*.ipynb"):
        if stale.name not in wanted:
            stale.unlink()
    for name, source in wanted.items():
        target = NOTEBOOKS_COPY / name
        data = without_widget_state(source.read_bytes())  # docs/_ext/regkit_notebooks.py: the snapshots show
        if not target.exists() or target.read_bytes() != data:
            target.write_bytes(data)
    (NOTEBOOKS_COPY / "README").write_text(
        "Copied from ../../notebooks/ by docs/conf.py at every build; edit the originals, not these.\n"
    )


_copy_notebooks()

nb_execution_mode = "off"  # never run a notebook: render the outputs stored in it (nbval tests them)
nb_merge_streams = True  # one block per stream, as Jupyter shows them
nb_output_stderr = "show"  # the bundled register's notice goes to stderr; the notebooks show it on purpose
# A widget's view needs the ipywidgets JavaScript and the state (both left out: docs/_ext/regkit_notebooks.py):
# render the output's next representation instead — an explorer's static snapshot, another widget's image or text.
nb_mime_priority_overrides = [("html", mime, None) for mime in WIDGET_MIME_TYPES]
nb_ipywidgets_js: dict[str, dict[str, str]] = {}  # nothing from a CDN

# -- The gallery: docs/gallery/ is drawn by docs/gallery.py from regkit.plot on the bundled world ---------------

sys.path.insert(0, str(DOCS))
import gallery  # noqa: E402  (docs/gallery.py)

gallery.build(DOCS / "gallery", log=lambda line: None)

# -- MyST ----------------------------------------------------------------------------------------------

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3  # GitHub-style #anchors for headings (docs/interface.md links by them)

# -- autodoc / autosummary / numpydoc -----------------------------------------------------------------

autosummary_generate = True
autosummary_ignore_module_all = False
autosummary_imported_members = True
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # numpydoc's Parameters/Returns say the types, in words
autodoc_preserve_defaults = True
add_module_names = False

numpydoc_show_class_members = False  # class pages list their members through the autosummary template
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# -- HTML ----------------------------------------------------------------------------------------------

html_theme = "pydata_sphinx_theme"
html_title = f"regkit {release}"
html_static_path = ["_static"]
html_css_files = ["regkit.css"]
html_theme_options = {
    "navigation_depth": 3,
    "show_toc_level": 2,
    "header_links_before_dropdown": 6,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version", "theme-version"],
}
html_sidebars = {"index": [], "interface": []}
html_show_sourcelink = False


# -- Module-level constants re-exported by a package ---------------------------------------------------
# A constant documented under its public name (``regkit.schema.PRICES``) has its docstring in the module
# that defines it (``regkit.schema.interface``, as a string after the assignment or a ``#:`` comment).
# autodoc looks only in the package and, finding nothing there, shows the docstring of the value's type
# ("str(object='') -> str ..."). Find the constant's own docstring instead, or show none.


def _attribute_doc(package: str, name: str, value: object) -> list[str] | None:
    candidates = sorted(m for m in sys.modules if m.startswith(package + "."))
    candidates += sorted(m for m in sys.modules if m.startswith("regkit.") and m not in candidates)
    for modname in candidates:
        if getattr(sys.modules[modname], name, object()) is not value:
            continue
        try:
            docs = ModuleAnalyzer.for_module(modname).find_attr_docs()
        except Exception:  # a module without source
            continue
        if docs.get(("", name)):
            return list(docs[("", name)])
    return None


def _words(text: str) -> str:
    return " ".join(text.split())


def _constant_docstring(app, what, name, obj, options, lines) -> None:
    if what not in {"data", "attribute"}:
        return
    package, _, attr = name.rpartition(".")
    if not hasattr(sys.modules.get(package), "__path__"):
        return  # not a package's re-export: autodoc read the defining module itself
    type_doc = type(obj).__doc__ or ""
    if lines and _words("\n".join(lines)) != _words(type_doc):
        return  # a docstring of its own
    lines[:] = _attribute_doc(package, attr, obj) or []


# -- Links that leave docs/ ------------------------------------------------------------------------------
# docs/interface.md is also read on its own in the repository, where it links to the README. The site has
# no README page, so such a link is pointed, while the page is read, at the page that says the same.
# The file itself is not changed; a README link not listed here is still a build warning.

README_SECTIONS = {
    "../README.md#the-local-register": "guide/data-sources.md#the-local-register",
}


def _site_links(app, docname, source) -> None:
    if docname != "interface":
        return
    for readme, page in README_SECTIONS.items():
        source[0] = source[0].replace(f"]({readme})", f"]({page})")


def setup(app):
    app.connect("source-read", _site_links)
    for package in ("regkit.client", "regkit.frames", "regkit.graph", "regkit.local", "regkit.schema"):
        importlib.import_module(package)
    app.connect("autodoc-process-docstring", _constant_docstring, priority=100)
