"""explorer/ is built in layers (explorer/__init__.py): a module imports only its own package
and the packages below it, no modules import each other in a circle, and every import is
at the top of its module, where a reader looks for what it depends on."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# explorer's packages from the top down; transformer/ is below all of them.
LAYERS = ("sections", "app", "state", "classroom", "training", "figures", "core", "text")
STREAMLIT_FREE = ("state", "classroom", "training", "figures", "core", "text")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(imported module, at the module's top level) for each import of `path`; imports
    under `if TYPE_CHECKING:` name a type for a reader, not a dependency, and are left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                continue
            if isinstance(child, ast.Import):
                found.extend((alias.name, top) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package[: len(package) - child.level + 1]
                    name = ".".join([*base, child.module] if child.module else base)
                else:
                    name = child.module or ""
                found.append((name, top))
            visit(child, top and isinstance(child, ast.If))

    visit(tree, True)
    return found


@functools.cache
def _explorer_modules() -> dict[str, list[tuple[str, bool]]]:
    return {_module(p): _imports(p) for p in sorted((ROOT / "explorer").rglob("*.py"))}


def _layer(module: str) -> int | None:
    """The layer's rank from the bottom (text 0), or None outside explorer's packages."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "explorer" or parts[1] not in LAYERS:
        return None
    return len(LAYERS) - 1 - LAYERS.index(parts[1])


def test_every_explorer_module_is_in_a_layer():
    loose = [m for m in _explorer_modules() if m != "explorer" and _layer(m) is None]
    assert not loose, f"modules outside the layers of explorer/__init__.py: {loose}"


def test_no_module_imports_a_higher_layer():
    upward = []
    for module, imports in _explorer_modules().items():
        here = _layer(module)
        for name, _ in imports:
            there = _layer(name)
            if here is not None and there is not None and there > here:
                upward.append(f"{module} -> {name}")
    assert not upward, "imports from a lower layer to a higher one:\n" + "\n".join(upward)


def test_the_pure_layers_never_import_streamlit():
    found = [f"{module} -> {name}" for module, imports in _explorer_modules().items()
             if module.split(".")[1:2] and module.split(".")[1] in STREAMLIT_FREE
             for name, _ in imports if name.split(".")[0] == "streamlit"]
    assert not found, "\n".join(found)


def test_no_import_circle():
    modules = _explorer_modules()
    graph = {module: {name for name, _ in imports if name in modules}
             for module, imports in modules.items()}
    # a circle is a path that comes back to where it started (depth-first search)
    state: dict[str, int] = {}  # 1 while on the path, 2 once all it reaches is done

    def walk(module: str, path: list[str]) -> list[str] | None:
        state[module] = 1
        for name in sorted(graph[module]):
            if state.get(name) == 1:
                return [*path[path.index(name):], name] if name in path else [module, name]
            if name not in state and (circle := walk(name, [*path, name])):
                return circle
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            circle = walk(module, [module])
            assert circle is None, " -> ".join(circle)


def test_imports_are_at_the_top_of_each_module():
    late = [f"{module} imports {name} inside a function or class"
            for module, imports in _explorer_modules().items()
            for name, top in imports
            if not top and name.split(".")[0] in ("explorer", "transformer")]
    assert not late, "\n".join(late)


def test_the_model_package_knows_nothing_of_the_app():
    for path in sorted((ROOT / "transformer").rglob("*.py")):
        names = {name.split(".")[0] for name, _ in _imports(path)}
        assert not names & {"explorer", "streamlit", "plotly"}, path.name


def _session_keys_from_elsewhere(source: str) -> list[str]:
    """What the module `source` uses as a session-state key (`st.session_state[KEY]`,
    `.get(KEY)`, `.pop(KEY)`, `.setdefault(KEY)`, `KEY in st.session_state`) that another
    explorer module declares: a name imported from it (`KEY`), or an attribute of a module
    or name imported from it (`C.FOLLOW_KEY`, `explorer.app.classroom.FOLLOW_KEY`). The
    view's keys, declared in state/view.py for the widgets that draw them and for links,
    are not counted."""
    tree = ast.parse(source)
    imported = {alias.asname or alias.name for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "")
                                                         .startswith("explorer"))
                for alias in node.names
                if "view" not in ((node.module or "").split(".")[-1], alias.name)}
    imported |= {alias.asname or alias.name.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.Import) for alias in node.names
                 if alias.name.startswith("explorer") and alias.name.split(".")[-1] != "view"}

    def is_session_state(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr == "session_state"

    def imported_name(node: ast.AST | None) -> str | None:
        """`node` as written, when it is an imported name or an attribute of one."""
        if isinstance(node, ast.Name):
            return node.id if node.id in imported else None
        if isinstance(node, ast.Attribute):
            owner = imported_name(node.value)
            return f"{owner}.{node.attr}" if owner is not None else None
        return None

    used = []
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Subscript) and is_session_state(node.value):
            key = node.slice
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("get", "pop", "setdefault")
              and is_session_state(node.func.value) and node.args):
            key = node.args[0]
        elif (isinstance(node, ast.Compare) and len(node.ops) == 1
              and isinstance(node.ops[0], (ast.In, ast.NotIn))
              and is_session_state(node.comparators[0])):
            key = node.left
        if (name := imported_name(key)) is not None:
            used.append(name)
    return used


def test_a_session_key_is_read_and_written_by_the_module_that_declares_it():
    """Another module asks the owner (train_state.trained_state, classroom.following, ...):
    docs/architecture.md, "Session keys"."""
    found = {p.relative_to(ROOT).as_posix(): keys
             for p in sorted([*(ROOT / "explorer").rglob("*.py"), *(ROOT / "pages").glob("*.py"),
                              ROOT / "app.py"])
             if (keys := _session_keys_from_elsewhere(p.read_text(encoding="utf-8")))}
    assert not found, found
    # the check sees each way of reaching another module's key, and leaves the view's alone
    assert sorted(_session_keys_from_elsewhere(
        "import streamlit as st\n"
        "import explorer.app.sidebar\n"
        "from ..app import classroom as C\n"
        "from .train_state import TRAINED_KEY\n"
        "from ..state.view import LINKED\n"
        "from ..state import view\n"
        "st.session_state.get(C.FOLLOW_KEY) is True\n"
        "st.session_state[C.FOLLOW_KEY] = False\n"
        "st.session_state.pop(TRAINED_KEY, None)\n"
        "if C.SEAT_KEY not in st.session_state: pass\n"
        "st.session_state.setdefault(explorer.app.sidebar.PRESENTER_KEY, False)\n"
        "st.session_state[LINKED] = st.session_state[view.SOURCE]\n"
        "local = 'mine'; st.session_state[local] = 1\n"
    )) == sorted(["C.FOLLOW_KEY", "C.FOLLOW_KEY", "TRAINED_KEY", "C.SEAT_KEY",
                 "explorer.app.sidebar.PRESENTER_KEY"])



CONTEXT_TEXT = {"t", "sentences", "get_lang", "set_lang"}  # read or set the run's language


def _context_text_imports(source: str, package: str) -> list[str]:
    """What the module `source` of `package` imports of explorer.text.i18n that reads or
    sets the run's language: those names, or the module itself (which reaches them)."""
    here = package.split(".")
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("explorer.text.i18n")]
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            if module == "explorer.text.i18n":
                found += [a.name for a in node.names if a.name in CONTEXT_TEXT or a.name == "*"]
            elif module == "explorer.text":
                found += [a.name for a in node.names if a.name == "i18n"]
    return found


def test_figures_take_their_language_as_an_argument():
    """A figure writes in the `lang` it is given (`Text(lang)`), never in the run's language
    read from context: a cache of a figure is then keyed by what the figure depends on."""
    found = {p.relative_to(ROOT).as_posix(): names
             for p in sorted((ROOT / "explorer" / "figures").rglob("*.py"))
             if (names := _context_text_imports(p.read_text(encoding="utf-8"),
                                                _module(p.parent)))}
    assert not found, found
    # the check sees each way of importing them
    assert _context_text_imports("from ..text.i18n import Text, fixed, t\n"
                                 "from explorer.text.i18n import get_lang\n"
                                 "from ..text import i18n\nimport explorer.text.i18n\n",
                                 "explorer.figures") == ["t", "get_lang", "i18n",
                                                         "explorer.text.i18n"]
