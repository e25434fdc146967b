// What the lobby and the table share: building elements (text only, never markup), the
// JSON API, and the words for seats and results.
//
// Every string that comes from the server or the game is put into the page as text:
// `el` appends strings as text nodes and sets no property from markup, so nothing a game
// (or a player typing a move) writes can become an element or run a script.

/** A new element: `props` sets attributes ("class", "text" and "hidden"/"disabled" as
 * booleans are special), `children` are elements or strings (appended as text). */
export function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
        if (value === undefined || value === null || value === false) continue;
        if (key === "class") node.className = value;
        else if (key === "text") node.textContent = String(value);
        else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children) {
        if (child !== null && child !== undefined) node.append(child);
    }
    return node;
}

/** Show or hide an element (the `hidden` attribute: no inline style is allowed). */
export function show(node, visible) {
    node.hidden = !visible;
}

/** A JSON request: `{status, data}`; `data` is `{error}` when the answer is not JSON.
 * Throws only when the server cannot be reached. */
export async function api(path, { method = "GET", body = undefined } = {}) {
    const init = { method, headers: { Accept: "application/json" }, cache: "no-store" };
    if (body !== undefined) {
        init.headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    let data;
    try {
        data = await response.json();
    } catch {
        data = { error: `the server answered ${response.status} ${response.statusText}` };
    }
    return { status: response.status, data };
}

/** How a seat is named in the page's own words (the game's text names its sides). */
export function playerName(seat, you) {
    return seat === you ? "you" : `player ${seat}`;
}

/** A list in words: "a", "a and b", "a, b and c". */
export function inWords(items) {
    if (items.length <= 1) return items.join("");
    return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** The result of a finished game, from its returns: who won, or a draw. */
export function resultWords(returns, you) {
    if (!Array.isArray(returns) || returns.length === 0) return "Game over";
    const best = Math.max(...returns);
    const winners = returns.flatMap((value, seat) => (value === best ? [seat] : []));
    if (winners.length === returns.length) return "Game over: a draw";
    const names = winners.map((seat) => playerName(seat, you));
    const verb = names.length === 1 && names[0] !== "you" ? "wins" : "win";
    const who = inWords(names);
    return `Game over: ${who.charAt(0).toUpperCase()}${who.slice(1)} ${verb}`;
}
