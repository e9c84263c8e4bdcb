"""Debian's chromium, headless and offline, as the browser tests and ``make bench`` start it.

Offline by construction: chromium resolves no host but the local app's (``--host-resolver-rules``), so a
page that tries to reach the internet fails at once and the request is seen as failed. Playwright's
request routing would also keep a page offline, but it passes every request through the test driver and
switches the HTTP cache off: slower than any real browser.

Without the omnibox's pop-up pages: the new headless mode loads ``chrome://omnibox-popup.top-chrome/`` (about 300
modules, in a renderer of its own) for every browser context's window, and no page ever shows it; without them the
browser tests take 2-17 % less CPU (bench/README.md, session 26). Chromium keeps only the last
``--disable-features`` it is given, so Playwright's own list (PaintHolding, ThirdPartyStoragePartitioning, ...)
is read from the installed Playwright and given again with these added, in place of Playwright's
(:func:`launch_options`); tests/browser/test_browser_app.py reads chromium's own command line to check that
exactly one list reached it, with both. Should the list not be found in a later Playwright, chromium starts with
Playwright's list alone (the pages are only CPU) and that test fails.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

CHROMIUM = "/usr/lib/chromium/chromium"
OFFLINE_ARG = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", OFFLINE_ARG]
#: Chromium's features for the omnibox's pop-up WebUI pages (Chromium 14x).
OMNIBOX_POPUP_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
#: Where Playwright's driver declares the features it disables, newest first.
_SWITCH_FILES = ("lib/coreBundle.js", "lib/server/chromium/chromiumSwitches.js")
_LIST = re.compile(r"\bdisabledFeatures\s*=\s*\[(?P<body>[^\]]*)\]")
_NAME = re.compile(r"""^\s*["'](?P<name>[A-Za-z0-9_]+)["'],?\s*(?://.*)?$""")


@lru_cache(maxsize=1)
def playwright_disabled_features() -> tuple[str, ...] | None:
    """The features the installed Playwright disables in chromium, in its order; None when its list is not found
    as a plain list of names (one per line, comments allowed)."""
    import playwright

    package = Path(playwright.__file__).parent / "driver" / "package"
    for name in _SWITCH_FILES:
        path = package / name
        if not path.is_file():
            continue
        found = _LIST.search(path.read_text(encoding="utf-8"))
        if found is None:
            continue
        names = []
        for line in found["body"].splitlines():
            if not line.strip() or line.strip().startswith("//"):
                continue
            entry = _NAME.match(line)
            if entry is None:  # an entry that is not a plain name (a condition): not a list to repeat
                return None
            names.append(entry["name"])
        return tuple(names) or None
    return None


def launch_options() -> dict:
    """Keyword arguments for Playwright's ``chromium.launch``: Debian's chromium, offline, without the omnibox's
    pop-up pages when Playwright's own disabled features can be given again with them."""
    options = {"executable_path": CHROMIUM, "args": list(CHROMIUM_ARGS)}
    playwrights = playwright_disabled_features()
    if playwrights:
        options["ignore_default_args"] = ["--disable-features=" + ",".join(playwrights)]
        options["args"].append("--disable-features=" + ",".join((*playwrights, *OMNIBOX_POPUP_FEATURES)))
    return options
