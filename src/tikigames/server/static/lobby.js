// The lobby (/): the form that starts a game, built from /api/catalog — each game's options
// (a number with its bounds, a checkbox, a choice), its seats (a person or a bot each; as
// many as the game's `players` option says, where it has one) and a seed — then each person's
// link to their seat, the spectators' link, and a button to sit at the first person's seat.

import { api, el, show } from "./common.js";

const $ = (id) => document.getElementById(id);
const form = $("new-game");
const gameSelect = $("game");
const optionsBox = $("options");
const seatsBox = $("seats");
const seedInput = $("seed");
const problem = $("lobby-error");
const started = $("started");

// A seat's kind that takes no search settings besides these two: a person, the random bot.
const PLAIN_KINDS = new Set(["human", "random"]);

let catalog = null;
let game = null; // the chosen game's entry of the catalog
let optionInputs = new Map(); // option name → its input or select
const seatKinds = []; // each seat's chosen kind, kept when the number of seats changes

function fail(message) {
    problem.textContent = message;
    show(problem, Boolean(message));
}

// ------------------------------------------------------------------ options

function optionInput(spec) {
    const id = `option-${spec.name}`;
    const label = el("label", { for: id, text: spec.name.replaceAll("_", " ") });
    const hint = spec.doc ? el("small", { text: spec.doc }) : null;
    let input;
    if (spec.kind === "bool") {
        input = el("input", { id, type: "checkbox" });
        input.checked = Boolean(spec.default);
        return el("div", { class: "field check" }, input, label, hint);
    }
    if (spec.choices) {
        input = el("select", { id });
        if (spec.allow_none) input.append(el("option", { value: "", text: "none" }));
        for (const choice of spec.choices) {
            input.append(el("option", { value: String(choice), text: String(choice) }));
        }
        input.value = spec.default === null ? "" : String(spec.default);
    } else if (spec.kind === "int" || spec.kind === "float") {
        input = el("input", {
            id,
            type: "number",
            inputmode: spec.kind === "int" ? "numeric" : "decimal",
            step: spec.kind === "int" ? "1" : "any",
            min: spec.minimum,
            max: spec.maximum,
            required: !spec.allow_none,
            placeholder: spec.allow_none ? "none (no limit)" : null,
        });
        input.value = spec.default === null ? "" : String(spec.default);
    } else {
        input = el("input", { id, type: "text", required: !spec.allow_none });
        input.value = spec.default === null ? "" : String(spec.default);
    }
    return el("div", { class: "field" }, label, input, hint);
}

/** An option's value as the API takes it (`undefined`: not valid). */
function optionValue(spec, input) {
    if (spec.kind === "bool") return input.checked;
    if (input.value === "") return spec.allow_none ? null : undefined;
    if (spec.kind === "int" || spec.kind === "float") {
        const number = Number(input.value);
        if (!Number.isFinite(number)) return undefined;
        return spec.kind === "int" && !Number.isInteger(number) ? undefined : number;
    }
    return input.value;
}

function drawOptions() {
    optionInputs = new Map();
    const fields = game.options.map((spec) => {
        const field = optionInput(spec);
        optionInputs.set(spec.name, field.querySelector("input, select"));
        return field;
    });
    optionsBox.replaceChildren(el("legend", { text: "Options" }), ...fields);
    show(optionsBox, fields.length > 0);
    const players = optionInputs.get("players");
    if (players) {
        players.addEventListener("input", drawSeats);
        players.addEventListener("change", drawSeats);
    }
}

// ------------------------------------------------------------------ seats

/** The number of seats: the `players` option's value where the game has one. */
function seatCount() {
    const spec = game.options.find((option) => option.name === "players");
    if (!spec) return game.players;
    const input = optionInputs.get("players");
    const value = optionValue(spec, input);
    const low = spec.minimum ?? 1;
    const high = spec.maximum ?? 16;
    if (!Number.isInteger(value) || value < low || value > high) {
        return seatsBox.querySelectorAll(".seat").length || game.players;
    }
    return value;
}

function seatRow(index) {
    const id = `seat-${index}`;
    const kind = el("select", { id, class: "kind" });
    for (const name of catalog.seat_kinds) {
        kind.append(el("option", { value: name, text: name === "human" ? "a person" : name }));
    }
    kind.value = seatKinds[index] ?? (index === 0 ? "human" : "ismcts");
    const iterations = el("input", {
        type: "number",
        class: "iterations",
        min: 1,
        max: 100000,
        step: 1,
        inputmode: "numeric",
        placeholder: "iterations",
        "aria-label": `seat ${index}: iterations a move`,
    });
    const seconds = el("input", {
        type: "number",
        class: "seconds",
        min: 0.01,
        max: 10,
        step: "any",
        inputmode: "decimal",
        placeholder: "seconds (1)",
        "aria-label": `seat ${index}: seconds a move`,
    });
    const settings = el("span", { class: "settings" }, iterations, seconds);
    const sync = () => {
        seatKinds[index] = kind.value;
        const searches = !PLAIN_KINDS.has(kind.value);
        show(settings, searches);
        iterations.disabled = seconds.disabled = !searches;
    };
    kind.addEventListener("change", sync);
    sync();
    return el(
        "div",
        { class: "seat", "data-seat": index },
        el("label", { for: id, text: `Seat ${index}` }),
        kind,
        settings,
    );
}

function drawSeats() {
    const rows = Array.from({ length: seatCount() }, (_, index) => seatRow(index));
    seatsBox.replaceChildren(el("legend", { text: "Seats" }), ...rows);
}

/** A seat as the API takes it: its kind, or `{kind, settings}` for a bot given a budget. */
function seatValue(row) {
    const kind = row.querySelector(".kind").value;
    if (PLAIN_KINDS.has(kind)) return kind;
    const settings = {};
    const iterations = row.querySelector(".iterations").value;
    const seconds = row.querySelector(".seconds").value;
    if (iterations !== "") settings.iterations = Number(iterations);
    if (seconds !== "") settings.seconds = Number(seconds);
    return Object.keys(settings).length ? { kind, settings } : kind;
}

// ------------------------------------------------------------------ the form

function chooseGame() {
    game = catalog.games.find((entry) => entry.name === gameSelect.value);
    seatKinds.length = 0;
    drawOptions();
    drawSeats();
    fail("");
}

/** What the form asks for; only the options changed from their defaults are sent (a game's
 * defaults may depend on its number of players), and `players` comes from the seats. */
function request() {
    const body = { game: game.name, seats: [...seatsBox.querySelectorAll(".seat")].map(seatValue) };
    const options = {};
    for (const spec of game.options) {
        if (spec.name === "players") continue;
        const value = optionValue(spec, optionInputs.get(spec.name));
        if (value !== spec.default) options[spec.name] = value;
    }
    if (Object.keys(options).length) body.options = options;
    if (seedInput.value !== "") body.seed = Number(seedInput.value);
    return body;
}

/** What is wrong with the form that the browser's checks do not see, or "". */
function problemOf(body) {
    // A script's number holds integers exactly up to 2**53 - 1: a larger seed would be sent
    // rounded, so it is refused here rather than changed.
    if ("seed" in body && !Number.isSafeInteger(body.seed)) {
        return `a seed here is an integer from 0 to ${Number.MAX_SAFE_INTEGER}`;
    }
    return "";
}

async function start(event) {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const body = request();
    fail(problemOf(body));
    if (problem.textContent) return;
    const button = $("start");
    button.disabled = true;
    let answer;
    try {
        answer = await api("/api/games", { method: "POST", body });
    } catch {
        answer = { status: 0, data: { error: "the server cannot be reached" } };
    } finally {
        button.disabled = false;
    }
    if (answer.status !== 201) {
        fail(answer.data.error ?? `refused (${answer.status})`);
        return;
    }
    showStarted(answer.data);
}

// ------------------------------------------------------------------ the links

function copyButton(url) {
    const button = el("button", { type: "button", class: "copy", text: "Copy" });
    button.addEventListener("click", async () => {
        try {
            await navigator.clipboard.writeText(url);
            button.textContent = "Copied";
        } catch {
            button.textContent = "Select the link to copy it";
        }
    });
    return button;
}

function showStarted(created) {
    $("game-id").textContent = created.id;
    const items = created.seats.map((seat) => {
        const head = el("span", { class: "seat-name", text: `Seat ${seat.seat}` });
        if (!seat.url) {
            return el("li", {}, head, el("span", { class: "bot", text: `${seat.kind} (a bot)` }));
        }
        const url = new URL(seat.url, location.href).href;
        return el(
            "li",
            {},
            head,
            el("a", { class: "seat-link", href: seat.url, "data-seat": seat.seat, text: url }),
            copyButton(url),
        );
    });
    $("seat-links").replaceChildren(...items);
    const watch = $("watch-link");
    watch.href = created.watch;
    watch.textContent = new URL(created.watch, location.href).href;
    const first = created.seats.find((seat) => seat.url);
    const open = $("open-seat");
    open.href = first ? first.url : created.watch;
    open.textContent = first ? `Play seat ${first.seat} →` : "Watch the game →";
    show(form, false);
    show(started, true);
    open.focus();
}

$("another").addEventListener("click", () => {
    show(started, false);
    show(form, true);
});

async function init() {
    let answer;
    try {
        answer = await api("/api/catalog");
    } catch {
        fail("the server cannot be reached; reload the page to try again");
        return;
    }
    if (answer.status !== 200) {
        fail(answer.data.error ?? "the catalog could not be read");
        return;
    }
    catalog = answer.data;
    for (const entry of catalog.games) {
        const players = entry.options.some((option) => option.name === "players")
            ? "players vary"
            : `${entry.players} players`;
        gameSelect.append(el("option", { value: entry.name, text: `${entry.name} (${players})` }));
    }
    gameSelect.addEventListener("change", chooseGame);
    form.addEventListener("submit", start);
    chooseGame();
    show(form, true);
}

init();
