// The table: a seat's page (/play/ID?token=T) or a spectator's (/watch/ID).
//
// It keeps a WebSocket open to /ws/games/ID and draws each view the server sends: whose turn
// it is, the picture (the view's SVG as an image: an image runs no script), the legal moves
// grouped as the terminal groups them, the position as text, and the log in words (fetched
// whenever the move number changes). A closed socket is reopened with a growing delay. Moves
// go over the socket (over HTTP while it is closed) with the view's move number, so a move
// made on a position the player no longer sees is refused, not misplayed.

import { api, el, playerName, resultWords, show } from "./common.js";

const main = document.getElementById("table");
const seatPage = main.dataset.role === "seat";
// The grouping's facts, written into the page from tikigames.terminal.
const SEPARATORS = new Set(main.dataset.separators);
const CAP = Number(main.dataset.cap);
// How deep the grouping looks for a split when one group holds every move (as the terminal).
const MAX_DEPTH = 8;

const gameId = decodeURIComponent(location.pathname.split("/").pop());
const token = seatPage ? new URLSearchParams(location.search).get("token") : null;
const query = token ? `?token=${encodeURIComponent(token)}` : "";
const gamePath = `/api/games/${encodeURIComponent(gameId)}`;

const $ = (id) => document.getElementById(id);
const ui = {
    connection: $("connection"),
    turn: $("turn"),
    moveNumber: $("move-number"),
    headline: $("headline"),
    picture: $("picture"),
    text: $("text"),
    log: $("log"),
    moves: $("moves"),
    moveCount: $("move-count"),
    notation: $("notation"),
    input: $("notation-input"),
    play: $("notation-play"),
    refusal: $("refusal"),
    refusalError: $("refusal-error"),
    refusalReason: $("refusal-reason"),
};

let view = null; // the last view drawn
let socket = null;
let retries = 0; // failed connections in a row: the next delay grows with them
let stopped = false; // the server said this page can never work (no such game, bad token)
let pending = false; // a move is sent and not yet answered
let sentText = null; // what the notation box sent, cleared once the move is played
let refocus = false; // the notation box had the focus when its move was sent: give it back
let svgShown = null;
let logAsked = 0; // the last log request: an older answer that comes late is dropped
let logAt = -1; // the move number of the log shown
let reopen = new Set(); // the groups open before the moves were redrawn (by their path)

// ------------------------------------------------------------------ the terminal's grouping

/** The text of a move up to its `depth`-th separator; a separator at the very start (as in
 * "-4:t21") does not count. The port of tikigames.terminal.group_key. */
export function groupKey(text, depth = 1) {
    let seen = 0;
    for (let index = 1; index < text.length; index++) {
        if (SEPARATORS.has(text[index])) {
            seen += 1;
            if (seen === depth) return text.slice(0, index);
        }
    }
    return text;
}

/** The moves by their group at `depth`, in the order each group first appears. */
function groupsOf(moves, depth) {
    const groups = new Map();
    for (const move of moves) {
        const key = groupKey(move.text, depth);
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(move);
    }
    return groups;
}

/** The terminal's `summarise`, as elements: at most CAP moves are shown, a run per group;
 * more are shown as their groups at the shallowest depth that splits them (deeper while one
 * group holds them all), each group opening onto its moves, grouped the same way. */
function movesElement(moves, path = "") {
    const box = el("div", { class: "move-groups" });
    if (moves.length <= CAP) {
        for (const [key, group] of groupsOf(moves, 1)) {
            box.append(el("div", { class: "run", "data-key": key }, ...group.map(moveButton)));
        }
        return box;
    }
    let depth = 1;
    let groups = groupsOf(moves, depth);
    while (groups.size === 1 && depth < MAX_DEPTH) {
        depth += 1;
        groups = groupsOf(moves, depth);
    }
    box.classList.add("grouped");
    for (const [key, group] of groups) {
        if (group.length === 1) {
            box.append(moveButton(group[0]));
            continue;
        }
        const where = `${path}\u0000${key}`;
        const details = el(
            "details",
            { class: "group", "data-key": key, "data-count": group.length },
            el("summary", {}, el("span", { class: "key", text: key }), " ",
                el("span", { class: "count", text: `(${group.length})` })),
        );
        details.dataset.path = where;
        // The moves of a group are drawn when it is first opened: a position of Paikō has
        // hundreds of them.
        details.addEventListener("toggle", () => {
            if (details.open && details.childElementCount === 1) {
                details.append(movesElement(group, where));
                reopenIn(details);
            }
        });
        box.append(details);
    }
    return box;
}

/** Open again the groups inside `node` that were open before a redraw. */
function reopenIn(node) {
    for (const details of node.querySelectorAll("details")) {
        if (reopen.has(details.dataset.path)) details.open = true;
    }
}

function moveButton(move) {
    const button = el("button", {
        type: "button",
        class: "move",
        "data-id": move.id,
        text: move.text,
    });
    button.addEventListener("click", () => send(move.id));
    return button;
}

// ------------------------------------------------------------------ drawing a view

function draw(next) {
    if (view && next.move_number < view.move_number) return; // a late answer: already past it
    const moved = !view || next.move_number !== view.move_number;
    view = next;
    pending = false;
    main.dataset.moveNumber = String(view.move_number);

    const you = view.seat;
    const yours = !view.terminal && you !== null && view.current_player === you;
    ui.turn.className = `turn ${view.terminal ? "over" : yours ? "yours" : "theirs"}`;
    if (view.terminal) ui.turn.textContent = resultWords(view.returns, you);
    else if (yours) ui.turn.textContent = "Your turn";
    else if (view.current_player >= 0) {
        ui.turn.textContent = `Player ${view.current_player} to move`;
    } else ui.turn.textContent = "Waiting…";
    if (view.terminal && Array.isArray(view.returns)) {
        ui.turn.append(el("span", { class: "returns", text: `returns ${view.returns.join(", ")}` }));
    }
    const seatWords = you === null ? "watching" : `you are player ${you}`;
    ui.moveNumber.textContent = `move ${view.move_number} · ${seatWords}`;
    document.title = `${yours ? "▶ " : ""}${view.game} — tikigames`;

    ui.headline.textContent = view.text.split("\n", 1)[0];
    ui.text.textContent = view.text;
    if (view.svg !== svgShown) {
        svgShown = view.svg;
        ui.picture.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(view.svg)}`;
        show(ui.picture, true);
    }

    if (seatPage) {
        drawMoves(moved);
        show(ui.notation, !view.terminal);
    }
    if (moved) {
        hideRefusal();
        if (sentText !== null && ui.input.value === sentText) ui.input.value = "";
        sentText = null;
    }
    if (logAt < view.move_number) fetchLog();
    updateControls();
}

function drawMoves(moved) {
    const legal = view.legal;
    const open = moved ? [] : [...ui.moves.querySelectorAll("details[open]")];
    reopen = new Set(open.map((details) => details.dataset.path));
    ui.moves.replaceChildren();
    ui.moveCount.textContent = legal.length ? `(${legal.length})` : "";
    if (!legal.length) {
        const words = view.terminal
            ? "The game is over."
            : `Waiting for ${playerName(view.current_player, view.seat)}…`;
        ui.moves.append(el("p", { class: "waiting", text: words }));
        return;
    }
    ui.moves.append(movesElement(legal));
    // On the same position, a group that was open stays open (a reconnection redraws it).
    reopenIn(ui.moves);
}

function updateControls() {
    if (!seatPage) return;
    const canMove = Boolean(view && view.legal.length) && !pending;
    ui.input.disabled = !(view && view.legal.length);
    ui.play.disabled = !canMove;
    if (refocus && canMove) {
        refocus = false;
        ui.input.focus();
    }
    for (const button of ui.moves.querySelectorAll("button.move")) button.disabled = !canMove;
    main.classList.toggle("pending", pending);
}

function showRefusal(message) {
    if (!seatPage) return;
    ui.refusalError.textContent = message.error ?? "refused";
    ui.refusalReason.textContent = message.reason ? `— ${message.reason}` : "";
    show(ui.refusal, true);
}

function hideRefusal() {
    if (seatPage) show(ui.refusal, false);
}

async function fetchLog() {
    const asked = ++logAsked;
    let answer;
    try {
        answer = await api(`${gamePath}/log${query}`);
    } catch {
        return; // the server went away: the next view asks again
    }
    if (asked !== logAsked || answer.status !== 200) return;
    logAt = answer.data.move_number;
    const before = ui.log.childElementCount;
    const entries = answer.data.log.map((words, index) =>
        el("li", { class: index >= before && before > 0 ? "new" : null, text: words }),
    );
    ui.log.replaceChildren(...entries);
    ui.log.scrollTop = ui.log.scrollHeight;
}

// ------------------------------------------------------------------ moves

function send(action) {
    if (!view || pending || !view.legal.length) return;
    const message = { action, move_number: view.move_number };
    refocus = document.activeElement === ui.input;
    hideRefusal();
    pending = true;
    updateControls();
    if (socket && socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify(message));
    } else {
        post(message);
    }
}

async function post(message) {
    let answer;
    try {
        answer = await api(`${gamePath}/moves`, { method: "POST", body: { ...message, token } });
    } catch {
        answer = { status: 0, data: { error: "the server cannot be reached; try again" } };
    }
    pending = false;
    if (answer.status === 200) draw(answer.data);
    else showRefusal(answer.data);
    updateControls();
}

if (seatPage) {
    ui.notation.addEventListener("submit", (event) => {
        event.preventDefault();
        const text = ui.input.value.trim();
        if (!text) {
            ui.input.focus();
            return;
        }
        sentText = ui.input.value;
        send(text);
    });
}

// ------------------------------------------------------------------ the connection

function setConnection(state, words) {
    ui.connection.className = `connection ${state}`;
    ui.connection.textContent = words;
    show(ui.connection, true);
}

function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${scheme}//${location.host}/ws/games/${encodeURIComponent(gameId)}${query}`;
    const ws = new WebSocket(url);
    socket = ws;
    let opened = false;
    ws.addEventListener("open", () => {
        opened = true;
        retries = 0;
        setConnection("live", "live");
    });
    ws.addEventListener("message", (event) => receive(event.data));
    ws.addEventListener("close", () => {
        if (socket !== ws) return;
        socket = null;
        if (pending) {
            pending = false;
            showRefusal({ error: "the connection dropped before the move was answered: look again" });
        }
        updateControls();
        if (!stopped) reconnect(opened);
    });
}

function receive(data) {
    let message;
    try {
        message = JSON.parse(data);
    } catch {
        return;
    }
    if (message && typeof message.move_number === "number" && "legal" in message) {
        draw(message);
    } else if (message && "error" in message) {
        pending = false;
        showRefusal(message);
        updateControls();
    }
}

/** Open the socket again after a growing, jittered delay; a connection that never opened
 * asks over HTTP why, and stops for good when the game or the token is refused. */
function reconnect(wasOpen) {
    const delay = Math.min(8000, 300 * 2 ** retries) * (0.8 + 0.4 * Math.random());
    retries += 1;
    setConnection("reconnecting", `reconnecting… (${Math.max(1, Math.round(delay / 1000))} s)`);
    setTimeout(async () => {
        if (!wasOpen) {
            try {
                const answer = await api(`${gamePath}${query}`);
                if (answer.status === 200) draw(answer.data);
                else if (answer.status === 403 || answer.status === 404) {
                    stopped = true;
                    setConnection("failed", answer.data.error ?? "refused");
                    return;
                }
            } catch {
                // the server is still away: try the socket anyway
            }
        }
        setConnection("reconnecting", "reconnecting…");
        connect();
    }, delay);
}

setConnection("connecting", "connecting…");
connect();
