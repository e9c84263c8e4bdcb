"""Debian's chromium, headless and offline, as the browser tests and ``make bench`` start it.

Offline by construction: chromium resolves no host but the local app's (``--host-resolver-rules``), so a
page that tries to reach the internet fails at once and the request is seen as failed. Playwright's
request routing would also keep a page offline, but it passes every request through the test driver and
switches the HTTP cache off: slower than any real browser.
"""

CHROMIUM = "/usr/lib/chromium/chromium"
OFFLINE_ARG = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", OFFLINE_ARG]
