"""The server's pages in a real browser (issue #28): headless Chromium driven by Selenium
against ``tikigames serve`` run as a separate process on a temporary database.

What a person does is done through the pages: the lobby's form starts a game, moves are
played by clicking the grouped buttons and by typing notation, a refused move shows its
reason; what the game writes never becomes markup (a move typed as an ``<img onerror>`` and
the same string put where the game's texts go run nothing); the spectator's page has the
picture and no moves; a page whose server dies reconnects by itself when it is back. The
moves' grouping, ported to the page's script, is checked against the terminal's
(:func:`tikigames.terminal.summarise`, :func:`tikigames.terminal.group_key`).

It needs Selenium, Chromium with its driver (Debian's ``chromium`` and ``chromium-driver``,
which ``.ci/run`` installs) and the server extra, and is skipped without them. With
``TIKIGAMES_SERVER_SHOTS=DIR`` it saves screenshots of the pages there, to look at.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import tikigames
from tikigames.terminal import CAP, group_key, summarise

from ..chromium import chromium, find_chromium

pytest.importorskip("uvicorn")
pytest.importorskip("starlette")
webdriver = pytest.importorskip("selenium.webdriver")


pytestmark = pytest.mark.skipif(find_chromium() is None, reason="needs chromium and chromedriver")

#: How long a page may take to show what the test waits for, in seconds.
WAIT = 15.0
#: A move that would run a script if the page wrote it as markup.
PAYLOAD = '<img src=x onerror="window.__pwned=1">'
SHOTS = os.environ.get("TIKIGAMES_SERVER_SHOTS")

#: Run before the page's own script on every page: keeps the page's WebSockets (so a test can
#: hand the page a message as if the server sent it) and answers the log's request with
#: ``window.__fakeLog`` once a test sets it.
SPY = """
(() => {
    const Native = window.WebSocket;
    window.__sockets = [];
    window.WebSocket = class extends Native {
        constructor(...args) { super(...args); window.__sockets.push(this); }
    };
    const nativeFetch = window.fetch.bind(window);
    window.fetch = (input, init) => {
        if (window.__fakeLog && String(input).includes("/log")) {
            const body = JSON.stringify(window.__fakeLog);
            return Promise.resolve(new Response(body, {status: 200,
                headers: {"Content-Type": "application/json"}}));
        }
        return nativeFetch(input, init);
    };
})();
"""


class Server:
    """``tikigames serve`` in a process of its own, on a free port and a database that
    outlives it (:meth:`stop` then :meth:`start` is a restart)."""

    def __init__(self, folder: Path) -> None:
        self.db = folder / "games.sqlite"
        self.errors = folder / "server.log"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "tikigames.cli", "serve", "--port", str(self.port)]
        with self.errors.open("ab") as errors:
            self.process = subprocess.Popen(
                [*command, "--db", str(self.db)], stdout=subprocess.DEVNULL, stderr=errors
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                self.call("GET", "/api/catalog")
                return
            except OSError:
                assert self.process.poll() is None, self.errors.read_text()
                time.sleep(0.1)
        raise AssertionError(f"the server did not answer: {self.errors.read_text()}")

    def stop(self) -> None:
        """Stop the server as ``Ctrl-C`` does (SIGTERM, not SIGKILL: the server then stops its
        bots' worker processes, which a killed server would leave behind)."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
            self.process = None

    def call(self, method: str, path: str, body: object = None) -> Any:
        """The JSON answer of ``method path`` (an error's body for a 4xx)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as error:
            return json.load(error)

    def new_game(self, game: str, seats: list[object], seed: int = 1) -> dict[str, Any]:
        created: dict[str, Any] = self.call(
            "POST", "/api/games", {"game": game, "seats": seats, "seed": seed}
        )
        assert "id" in created, created
        return created

    def view(self, created: dict[str, Any], seat: int) -> dict[str, Any]:
        token = created["seats"][seat]["token"]
        view: dict[str, Any] = self.call("GET", f"/api/games/{created['id']}?token={token}")
        return view

    def move(self, created: dict[str, Any], seat: int, action: object, number: int) -> None:
        token = created["seats"][seat]["token"]
        body = {"token": token, "action": action, "move_number": number}
        answer = self.call("POST", f"/api/games/{created['id']}/moves", body)
        assert answer.get("move_number", -1) > number, answer


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    folder = Path(tempfile.mkdtemp(prefix="tikigames-server-"))
    running = Server(folder)
    running.start()
    try:
        yield running
    finally:
        running.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium({"goog:loggingPrefs": {"browser": "ALL"}}) as driver:
        driver.set_window_size(1280, 1000)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SPY})
        yield driver


def until(driver: Any, check: Callable[[Any], Any], what: str, timeout: float = WAIT) -> Any:
    """What ``check`` returns once it is truthy (Selenium's wait, saying what it waited for)."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(check, what)


def css(driver: Any, selector: str) -> list[Any]:
    found: list[Any] = driver.find_elements("css selector", selector)
    return found


def text_of(driver: Any, element_id: str) -> str:
    return str(driver.execute_script(f"return document.getElementById('{element_id}').innerText"))


def move_number(driver: Any) -> int:
    number = driver.execute_script("return document.getElementById('table').dataset.moveNumber")
    return -1 if number is None else int(number)


def log_length(driver: Any) -> int:
    return len(css(driver, "#log li"))


def at_move(driver: Any, number: int) -> None:
    until(driver, lambda d: move_number(d) == number, f"the page at move {number}")


def logged(driver: Any, entries: int, timeout: float = WAIT) -> None:
    until(driver, lambda d: log_length(d) == entries, f"{entries} entries in the log", timeout)


def problems(driver: Any) -> list[str]:
    """The browser's complaints since the last call: errors and refused (CSP) content."""
    return [
        entry["message"]
        for entry in driver.get_log("browser")
        if entry["level"] == "SEVERE" or "Content Security Policy" in entry["message"]
    ]


def shot(driver: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(SHOTS) / f"{name}.png"))


def open_seat(driver: Any, server: Server, created: dict[str, Any], seat: int) -> None:
    driver.get(server.base + created["seats"][seat]["url"])
    until(driver, lambda d: "live" in text_of(d, "connection"), "the page's socket")
    until(driver, lambda d: move_number(d) >= 0, "the first view")


# ---------------------------------------------------------------------- the lobby


def test_the_lobby_starts_a_game_and_opens_the_seat(server: Server, browser: Any) -> None:
    from selenium.webdriver.support.ui import Select

    browser.get(server.base + "/")
    until(browser, lambda d: css(d, "#game option"), "the catalog")
    Select(css(browser, "#game")[0]).select_by_value("tactiki")
    until(browser, lambda d: len(css(d, "#seats .seat")) == 2, "TacTiki's two seats")
    assert css(browser, "#option-max_turns")[0].get_attribute("value") == "300"
    Select(css(browser, "#seat-0")[0]).select_by_value("human")
    Select(css(browser, "#seat-1")[0]).select_by_value("ismcts")
    css(browser, "#seats .seat[data-seat='1'] .iterations")[0].send_keys("20")
    css(browser, "#seed")[0].send_keys("7")
    shot(browser, "lobby")
    css(browser, "#start")[0].click()

    until(browser, lambda d: css(d, "#started")[0].is_displayed(), "the seats' links")
    links = css(browser, "#seat-links a.seat-link")
    assert len(links) == 1 and "/play/" in links[0].get_attribute("href")
    assert "ismcts" in text_of(browser, "seat-links")
    assert "/watch/" in css(browser, "#watch-link")[0].get_attribute("href")
    shot(browser, "lobby-started")
    css(browser, "#open-seat")[0].click()

    until(browser, lambda d: "/play/" in d.current_url and "token=" in d.current_url, "the seat")
    until(browser, lambda d: text_of(d, "turn") == "Your turn", "seat 0's turn")
    assert css(browser, "#picture")[0].get_attribute("src").startswith("data:image/svg+xml")
    assert problems(browser) == []


# ---------------------------------------------------------------------- playing


def test_moves_by_buttons_and_notation_until_the_bot_answers(server: Server, browser: Any) -> None:
    created = server.new_game("tactiki", ["human", {"kind": "random"}], seed=3)
    open_seat(browser, server, created, 0)
    assert text_of(browser, "turn") == "Your turn"
    # At most CAP moves: all shown, a run per group, as the terminal prints them.
    runs = browser.execute_script(
        "return [...document.querySelectorAll('#moves .run')]"
        ".map((run) => [...run.children].map((button) => button.textContent))"
    )
    texts = [move["text"] for move in server.view(created, 0)["legal"]]
    (line,) = summarise(texts, width=10**6)
    assert runs == [run.split("  ") for run in line.strip().split(" · ")]
    for number in range(10):  # TIKI places its ten pieces, by turns a button and the notation
        legal = server.view(created, 0)["legal"]
        runs = css(browser, "#moves .run")
        assert runs and all(r.get_attribute("data-key") for r in runs)  # grouped: by rank
        if number % 2 == 0:
            run = runs[number % len(runs)]
            run.find_elements("css selector", "button.move")[-1].click()
        else:
            box = css(browser, "#notation-input")[0]
            box.send_keys(legal[len(legal) // 2]["text"] + "\n")
        at_move(browser, number + 1)
        logged(browser, number + 1)
    assert css(browser, "#notation-input")[0].get_attribute("value") == ""
    # TAC, the random bot, places its ten; then it is TIKI's turn again.
    until(browser, lambda d: move_number(d) == 20, "the bot's answer", timeout=30)
    until(browser, lambda d: text_of(d, "turn") == "Your turn", "TIKI's turn again")
    logged(browser, 20)
    assert "TAC places" in text_of(browser, "log")
    shot(browser, "tactiki")
    assert problems(browser) == []


def test_a_refused_move_shows_its_reason(server: Server, browser: Any) -> None:
    created = server.new_game("tactiki", ["human", "human"])
    open_seat(browser, server, created, 0)
    assert not css(browser, "#refusal")[0].is_displayed()
    css(browser, "#notation-input")[0].send_keys("1@a5\n")
    until(browser, lambda d: css(d, "#refusal")[0].is_displayed(), "the refusal")
    refusal = text_of(browser, "refusal")
    assert "'1@a5' is not legal now" in refusal
    assert "a player places its pieces on its own start fields" in refusal
    assert move_number(browser) == 0
    css(browser, "#notation-input")[0].clear()
    css(browser, "#notation-input")[0].send_keys("9@a1\n")
    until(browser, lambda d: "the ranks are 1 to 5" in text_of(d, "refusal"), "the parser's")
    # A legal move clears the refusal.
    css(browser, "#moves button.move")[0].click()
    at_move(browser, 1)
    until(browser, lambda d: not css(d, "#refusal")[0].is_displayed(), "no refusal")


def test_what_the_game_writes_is_text_never_markup(server: Server, browser: Any) -> None:
    created = server.new_game("tactiki", ["human", "human"])
    open_seat(browser, server, created, 0)
    css(browser, "#notation-input")[0].send_keys(PAYLOAD + "\n")
    until(browser, lambda d: css(d, "#refusal")[0].is_displayed(), "the refusal")
    assert PAYLOAD in text_of(browser, "refusal-error")
    # The same string where every text of the game goes: a view as if the server sent it
    # (the game's name, the text, the picture, a legal move) and the log.
    view = server.view(created, 0)
    fake = dict(view, game=PAYLOAD, text=f"{PAYLOAD}\n{PAYLOAD}", svg=PAYLOAD,
                move_number=view["move_number"] + 1,
                legal=[{"id": 0, "text": PAYLOAD}, {"id": 1, "text": PAYLOAD + ":x"}])  # fmt: skip
    browser.execute_script(
        "window.__fakeLog = {move_number: arguments[1], log: [arguments[2]]};"
        "const socket = window.__sockets[window.__sockets.length - 1];"
        "socket.dispatchEvent(new MessageEvent('message', {data: arguments[0]}));",
        json.dumps(fake),
        fake["move_number"],
        PAYLOAD,
    )
    until(browser, lambda d: PAYLOAD in text_of(d, "log"), "the log's text")
    time.sleep(0.3)  # an <img onerror> would have failed to load by now
    assert text_of(browser, "headline") == PAYLOAD
    assert PAYLOAD in browser.execute_script("return document.getElementById('text').textContent")
    assert [b.text for b in css(browser, "#moves button.move")] == [PAYLOAD, PAYLOAD + ":x"]
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    assert css(browser, "img[src='x']") == []
    assert [i.get_attribute("id") for i in css(browser, "img")] == ["picture"]


# ---------------------------------------------------------------------- watching


def test_the_spectator_sees_the_picture_and_no_moves(server: Server, browser: Any) -> None:
    created = server.new_game("paiko", ["human", "human"])
    server.move(created, 0, "draft fire", 0)
    browser.get(server.base + created["watch"])
    until(browser, lambda d: move_number(d) == 1, "the spectator's view")
    picture = css(browser, "#picture")[0]
    until(browser, lambda d: d.execute_script("return arguments[0].naturalWidth", picture) > 0,
          "the picture drawn")  # fmt: skip
    assert picture.is_displayed() and picture.size["width"] > 500
    assert css(browser, "button.move") == [] and css(browser, "#notation") == []
    assert text_of(browser, "turn") == "Player 0 to move"
    logged(browser, 1)
    assert "fire" in text_of(browser, "log").lower()
    shot(browser, "watch")
    assert problems(browser) == []


# ---------------------------------------------------------------------- the grouping


def test_the_pages_grouping_is_the_terminals(server: Server, browser: Any) -> None:
    created = server.new_game("paiko", ["human", "human"])
    rng = random.Random(1)
    for _ in range(17):  # the draft, to the first position with hundreds of moves
        seat = server.view(created, 0)["current_player"]
        view = server.view(created, seat)
        server.move(created, seat, rng.choice(view["legal"])["id"], view["move_number"])
    seat = server.view(created, 0)["current_player"]
    texts = [move["text"] for move in server.view(created, seat)["legal"]]
    assert len(texts) > CAP
    open_seat(browser, server, created, seat)

    def shown(box: str) -> list[str]:
        """The labels of a box of groups: "key (count)", or a lone move's text."""
        return list(browser.execute_script(
            "return [...document.querySelector(arguments[0]).children].map((e) =>"
            " e.tagName === 'DETAILS' ? e.querySelector('summary').textContent : e.textContent)",
            box,
        ))  # fmt: skip

    def terminal(texts: list[str]) -> list[str]:
        lines = summarise(texts, width=10**6)
        assert len(lines) == 1, lines  # no "… and N more groups"
        return lines[0].strip().split("  ")

    assert shown("#moves > .move-groups") == terminal(texts)
    # A group opens onto its moves, grouped as the terminal's `moves PREFIX` lists them.
    first = css(browser, "#moves details.group")[0]
    key = first.get_attribute("data-key")
    first.find_element("css selector", "summary").click()
    inner = [t for t in texts if group_key(t) == key]
    opened = "#moves details.group[open] > .move-groups"
    until(browser, lambda d: css(d, opened), "the group's moves")  # drawn when it opens
    assert shown(opened) == terminal(inner)
    shot(browser, "paiko")

    # The script's group_key is the terminal's, at every depth, on every kind of notation.
    sample = [tikigames.load("tactik").action(i).text for i in range(0, 10971, 7)]
    sample += [tikigames.load("paiko").action(i).text for i in range(0, 18090, 41)]
    sample += ["-4:t21", "stay", "", "a", "@x", "c6-b6:N"]
    keys = browser.execute_async_script(
        "const [texts, done] = [arguments[0], arguments[arguments.length - 1]];"
        "import('/static/play.js').then((m) => done(texts.map((t) =>"
        " [1, 2, 3].map((depth) => m.groupKey(t, depth)))));",
        sample,
    )
    assert keys == [[group_key(t, depth) for depth in (1, 2, 3)] for t in sample]

    # A move inside a group plays.
    number = move_number(browser)
    target = css(browser, opened)[0].find_elements("css selector", "button.move, details.group")[0]
    if target.tag_name == "details":  # a group in the group: open it too
        group = target
        group.find_element("css selector", "summary").click()
        moves = until(browser, lambda d: group.find_elements("css selector", ".move"), "moves")
        target = moves[0]
    target.click()
    at_move(browser, number + 1)
    assert problems(browser) == []


# ---------------------------------------------------------------------- reconnecting


def test_the_page_reconnects_after_the_server_restarts(server: Server, browser: Any) -> None:
    created = server.new_game("tactiki", ["human", "human"])
    open_seat(browser, server, created, 1)
    assert text_of(browser, "turn") == "Player 0 to move"
    server.stop()
    until(browser, lambda d: "reconnecting" in text_of(d, "connection"), "reconnecting…")
    server.start()
    until(browser, lambda d: "live" in text_of(d, "connection"), "the socket again", timeout=20)
    view = server.view(created, 0)
    server.move(created, 0, view["legal"][0]["text"], view["move_number"])
    at_move(browser, 1)
    logged(browser, 1)
    assert text_of(browser, "turn") == "Player 0 to move"  # TIKI places ten pieces
    problems(browser)  # the refused connections while the server was down are expected
