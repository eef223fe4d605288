"""The translation catalogs, with Babel: extract the words, update the languages,
compile them, check them.

    python scripts/catalogs.py update     extract drunter.pot, merge it into every
                                          language's drunter.po, compile drunter.mo
    python scripts/catalogs.py compile    only compile the .po files
    python scripts/catalogs.py check      exit 1 if drunter.pot is out of date, an entry
                                          is untranslated or fuzzy, a placeholder differs
                                          from its msgid's, or a .mo is out of date
    python scripts/catalogs.py init LANG  start a new language (docs/i18n.md)
    python scripts/catalogs.py sample LANG N SEED
                                          print N of LANG's messages drawn at random
                                          with SEED, each with its translation, for a
                                          reading (the same SEED draws the same ones)

Click's own words (Usage, Options, Error, ...) come from the same catalogs. Which words
click has is kept in locale/click-words.pot, so that the catalogs and their check do not
change with the click release installed; ``update`` adds the installed click's words to
that list and names the ones new since it (a word of click's not in the catalogs is
shown in English, as gettext does).
"""
from __future__ import annotations

import io
import re
import sys
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "drunter_notation" / "locale"
DOMAIN = "drunter"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
CLICK_WORDS = LOCALE / "click-words.pot"
CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "termui", "types", "utils")
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}|%\([A-Za-z_][A-Za-z0-9_]*\)[sd]")

sys.path.insert(0, str(Path(__file__).resolve().parent))  # babel_toml, the rulesets' extractor


def languages() -> list[str]:
    return sorted(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES" / f"{DOMAIN}.po").exists())


def extract() -> Catalog:
    """The project's own words and the kept list of click's."""
    catalog = Catalog(project="drunter-notation", domain=DOMAIN, charset="utf-8")
    with open(ROOT / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    for filename, _lineno, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, strip_comment_tags=True, comment_tags=("TRANSLATORS:",)):
        catalog.add(message, None, [(filename, 0)], auto_comments=comments, context=context)
    for m in _read_po(CLICK_WORDS):
        if m.id:
            catalog.add(m.id, None, m.locations, context=m.context)
    return catalog


def installed_click_words() -> Catalog:
    """The words of the click release installed, read from its source."""
    import click
    from babel.messages.extract import extract as run
    catalog = Catalog(project="click", domain=DOMAIN, charset="utf-8")
    click_dir = Path(click.__file__).parent
    for name in CLICK_MODULES:
        with open(click_dir / f"{name}.py", "rb") as f:
            for _lineno, message, _comments, context in run("python", f):
                catalog.add(message, None, [(f"click/{name}.py", 0)], context=context)
    return catalog


def refresh_click_words() -> list[str]:
    """Add the installed click's words to the kept list; the ones it did not have yet."""
    kept = _read_po(CLICK_WORDS)
    new = [m for m in installed_click_words() if m.id and _key(m) not in {_key(k) for k in kept if k.id}]
    for m in new:
        kept.add(m.id, None, m.locations, context=m.context)
    if new:
        CLICK_WORDS.write_bytes(_po_bytes(kept))
    return [repr(_norm(m.id)) for m in new]


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, include_lineno=False, omit_header=False)
    return out.getvalue()


def _read_po(path: Path) -> Catalog:
    with open(path, "rb") as f:
        return read_po(f)


def compile_all() -> None:
    for lang in languages():
        folder = LOCALE / lang / "LC_MESSAGES"
        catalog = _read_po(folder / f"{DOMAIN}.po")
        with open(folder / f"{DOMAIN}.mo", "wb") as f:
            write_mo(f, catalog, use_fuzzy=False)


def _entries(catalog: Catalog) -> list[tuple[str, str, str]]:
    """What a template says, apart from its header and line numbers (not written)."""
    return sorted((repr(_norm(m.id)), repr(_norm(m.context)), repr(sorted({f for f, _ in m.locations})))
                  for m in catalog if m.id)


def _norm(value: object) -> object:
    """One spelling of a catalog value, whether read from a .po or a .mo: plural
    forms as a tuple, texts as str."""
    if isinstance(value, (list, tuple)):
        return tuple(_norm(v) for v in value)
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _template_current(template: Catalog) -> bool:
    return TEMPLATE.exists() and _entries(_read_po(TEMPLATE)) == _entries(template)


def update() -> None:
    from importlib.metadata import version
    for word in refresh_click_words():
        print(f"click {version('click')}: a word new since the kept list, now kept: {word}")
    template = extract()
    if not _template_current(template):  # the header's date changes only with the words
        TEMPLATE.write_bytes(_po_bytes(template))
    for lang in languages():
        path = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        catalog = _read_po(path)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        for key in list(catalog.obsolete):  # a msgid no longer used is dropped, not kept commented
            del catalog.obsolete[key]
        path.write_bytes(_po_bytes(catalog))
    compile_all()


def init(lang: str) -> None:
    folder = LOCALE / lang / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    catalog = Catalog(locale=Locale.parse(lang), project="drunter-notation", domain=DOMAIN, charset="utf-8",
                      last_translator="drunter-notation developers", language_team=lang)
    catalog.fuzzy = False  # the header carries Plural-Forms: a fuzzy one would not be compiled
    (folder / f"{DOMAIN}.po").write_bytes(_po_bytes(catalog))
    update()


def _key(m: object) -> tuple[object, object]:
    return _norm(m.id), _norm(m.context)  # type: ignore[attr-defined]


def _placeholders_differ(ids: tuple[str, ...], string: str, plural: bool) -> bool:
    """A translation may use no placeholder its msgid lacks, and must keep all of
    them, except the count itself in a plural form (Czech "jeden", "one")."""
    expected = set().union(*(PLACEHOLDER.findall(i) for i in ids))
    used = set(PLACEHOLDER.findall(string))
    spared = {"{n}", "{count}", "%(n)s", "%(count)s", "%(num)s"} if plural else set()
    return bool(used - expected) or bool(set(PLACEHOLDER.findall(ids[0])) - used - spared)


def problems() -> list[str]:
    """Everything that keeps the catalogs from being complete and current."""
    found = []
    template = extract()
    if not _template_current(template):
        found.append(f"{TEMPLATE.relative_to(ROOT)} is out of date: run python scripts/catalogs.py update")
    wanted = {_key(m) for m in template if m.id}
    for lang in languages():
        folder = LOCALE / lang / "LC_MESSAGES"
        catalog = _read_po(folder / f"{DOMAIN}.po")
        have = {_key(m): m for m in catalog if m.id}
        for key in sorted(wanted - have.keys(), key=repr):
            found.append(f"{lang}: not in the catalog: {key[0]!r}")
        for m in have.values():
            strings = tuple(m.string) if isinstance(m.string, (list, tuple)) else (m.string,)
            ids = tuple(m.id) if isinstance(m.id, (list, tuple)) else (m.id,)
            if m.fuzzy:
                found.append(f"{lang}: fuzzy: {ids[0]!r}")
            if not all(strings):
                found.append(f"{lang}: untranslated: {ids[0]!r}")
                continue
            bad = next((s for s in strings if _placeholders_differ(ids, s, len(ids) > 1)), None)
            if bad is not None:
                found.append(f"{lang}: placeholders differ: {ids[0]!r} -> {bad!r}")
        mo = folder / f"{DOMAIN}.mo"
        if not mo.exists():
            found.append(f"{lang}: {mo.relative_to(ROOT)} is missing: run python scripts/catalogs.py compile")
            continue
        with open(mo, "rb") as f:
            compiled = {_key(m): _norm(m.string) for m in read_mo(f) if m.id}
        current = {key: _norm(m.string) for key, m in have.items() if not m.fuzzy and all(
            m.string if isinstance(m.string, (list, tuple)) else (m.string,))}
        if compiled != current:
            found.append(f"{lang}: {mo.relative_to(ROOT)} is out of date: run python scripts/catalogs.py compile")
    return found


def sample(lang: str, n: int, seed: int) -> str:
    """N messages of LANG's catalog drawn with SEED (in catalog order), msgid and msgstr
    as the .po writes them, numbered, for a reading that anyone can draw again."""
    import random
    catalog = _read_po(LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po")
    entries = sorted((m for m in catalog if m.id), key=lambda m: repr(_key(m)))
    drawn = sorted(random.Random(seed).sample(range(len(entries)), min(n, len(entries))))
    out = []
    for number, i in enumerate(drawn, 1):
        m = entries[i]
        ids = tuple(m.id) if isinstance(m.id, (list, tuple)) else (m.id,)
        strings = tuple(m.string) if isinstance(m.string, (list, tuple)) else (m.string,)
        out.append(f"## {number}" + (f" [{m.context}]" if m.context else ""))
        out.extend(f"en: {i!r}" for i in ids)
        out.extend(f"{lang}: {s!r}" for s in strings)
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if argv == ["update"]:
        update()
    elif argv == ["compile"]:
        compile_all()
    elif argv == ["check"]:
        found = problems()
        for line in found[:200]:
            print(line)
        if len(found) > 200:
            print(f"... and {len(found) - 200} more")
        return 1 if found else 0
    elif len(argv) == 4 and argv[0] == "sample" and argv[2].isdigit() and argv[3].isdigit():
        print(sample(argv[1], int(argv[2]), int(argv[3])))
    elif len(argv) == 2 and argv[0] == "init":
        init(argv[1])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
