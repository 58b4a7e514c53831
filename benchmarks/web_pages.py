"""Page weight and time to interactive of the browser game, in Debian's chromium through
Playwright, against ``flagcore serve`` on 127.0.0.1.

Each page is opened ``--runs`` times, each time in a new browser context (an empty cache, as a
first visit; the How to play dialog is marked seen, as for a returning player, except on the
"first visit" row). Measured in the page, from the navigation's start:

- weight: the decoded (uncompressed) bytes of the HTML, CSS and JavaScript the page loaded, with
  help.html when its dialog fetched it (Resource Timing), and apart from them the images (flags);
- interactive: for Connections and the Puzzle the moment the board is on screen and answers
  clicks (the pages mark it: ``performance.mark("flagcore-interactive")``, after the board's API
  reply is drawn); for the other pages DOMContentLoaded (their scripts have run).

    python benchmarks/web_pages.py [--runs 15]     # a Markdown table on stdout
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

SECRET = "web-pages-benchmark-secret-0123456789"
CHROMIUM = os.environ.get("FLAGCORE_CHROMIUM", "/usr/bin/chromium")
# the flags the browser tests launch chromium with (tests/web/browser_fixtures.py): headless, no network of its own
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
HELP_SEEN = "['connections', 'puzzle'].forEach(g => localStorage.setItem('flagcore.help-seen.' + g, '1'))"
PAGES = [  # (row, address, the game page marks its board interactive)
    ("Connections (today's board)", "/connections", True),
    ("Connections, first visit (help dialog)", "/connections", True),
    ("Puzzle (today's deal)", "/puzzle", True),
    ("Home", "/", False),
    ("Search simulator", "/simulator", False),
    ("Swap bench", "/bench", False),
    ("How to play", "/static/help.html", False),
]
MEASURE = """(game) => new Promise(resolve => {
  const done = () => {
    const nav = performance.getEntriesByType("navigation")[0];
    const res = performance.getEntriesByType("resource");
    const code = res.filter(r => /\\.(css|js|html)$/.test(new URL(r.name).pathname));
    const images = res.filter(r => r.initiatorType === "img" || /\\.(svg|png|ico)$/.test(new URL(r.name).pathname));
    const mark = performance.getEntriesByName("flagcore-interactive")[0];
    resolve({ code: nav.decodedBodySize + code.reduce((s, r) => s + r.decodedBodySize, 0),
              images: images.reduce((s, r) => s + r.decodedBodySize, 0),
              interactive: game ? mark.startTime : nav.domContentLoadedEventEnd });
  };
  const ready = () => game ? performance.getEntriesByName("flagcore-interactive").length > 0
                           : document.readyState === "complete";
  const wait = () => ready() ? setTimeout(done, 300) : setTimeout(wait, 10);  // 300 ms: the help dialog's fetch lands
  wait();
})"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "flagcore", "serve", "--port", str(port), "--no-access-log", "--log-level", "warning"],
        env=dict(os.environ, FLAGCORE_SECRET=SECRET),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        rows = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for name, path, game in PAGES:
                samples = []
                for run in range(args.runs + 1):  # the first run warms the server (today's boards), not counted
                    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
                    if "first visit" not in name:
                        context.add_init_script(HELP_SEEN)
                    page = context.new_page()
                    page.goto(base + path)
                    result = page.evaluate(MEASURE, game)
                    context.close()
                    if run:
                        samples.append(result)
                times = sorted(s["interactive"] for s in samples)
                rows.append(
                    (
                        name,
                        max(s["code"] for s in samples),
                        max(s["images"] for s in samples),
                        statistics.median(times),
                        times[int(0.9 * (len(times) - 1))],
                    )
                )
                print(f"  {name}: {rows[-1][3]:.0f} ms", file=sys.stderr)
            browser.close()
    finally:
        server.terminate()
        server.wait(30)
    print(f"{args.runs} cold loads per page, 390x844, chromium {CHROMIUM}, 127.0.0.1\n")
    print("| page | HTML + CSS + JS | images | interactive, median | p90 |")
    print("|---|---:|---:|---:|---:|")
    for name, code, images, median, p90 in rows:
        print(f"| {name} | {code / 1024:.1f} KB | {images / 1024:.0f} KB | {median:.0f} ms | {p90:.0f} ms |")


if __name__ == "__main__":
    main()
