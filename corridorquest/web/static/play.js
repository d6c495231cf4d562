// Corridor Quest: a seated player plays on the game's page. No rule lives here: the
// squares marked and the walls that may stand come from the server
// (GET /api/v1/games/{id}/legal-actions, what this seat may know), every action goes to
// the API as a terminal client sends it (cqApi of api.js, with the game's revision as
// `base_revision`), and every refusal comes back in the server's words, shown in the
// status line. The board and the panel are refreshed by watch.js after each event of the
// game's stream; this script marks each new board again.
//
// The board's hit targets are the server's (drawing/board_svg.py): squares `data-to`,
// the places of walls `data-slot`, the edges for markers `data-edge` (invisible games),
// each wall's and marker's bar as it would stand in `data-bar`.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function playPage(main, play) {
  const gameId = main.dataset.game;
  const live = document.getElementById("live");
  const status = document.getElementById("play-status");
  const marking = document.getElementById("marking");
  const base = "/games/" + gameId;
  let legal = null; // the last answer of legal-actions for the board shown
  let asked = 0; // the number of the last legal-actions request (older answers are dropped)
  let pending = null; // the wall previewed by a first tap on a touch screen
  let busy = false;
  let seenRevision = null; // the revision of the last board marked
  let touch = false; // the last pointer was a finger (or a pen): a wall needs a second tap
  const declined = new Set(); // offers declined here (they stay open on the server)
  let lastDone = ""; // "Move to c2: done.": said with the turn's words until the next action

  const board = () => document.getElementById("board");
  const svg = () => live.querySelector("#board svg");
  const say = (text, refused) => {
    status.textContent = text;
    status.classList.toggle("refused", Boolean(refused));
    status.dataset.refused = refused ? "yes" : "no";
  };
  const words = (answer) => {
    const body = answer.body || {};
    return body.message || body.reason || "the server answered " + answer.status;
  };
  const turnText = () => {
    if (!legal) return "";
    if (legal.your_turn) {
      return "Your turn: " + (touch ? "tap" : "click") + " a marked square to move, or an edge between squares for a wall.";
    }
    return "Not your turn: the board follows the game.";
  };

  // A new board (the page's first, or one watch.js brought after an event).
  const refresh = () => {
    const shown = board();
    if (!shown) return;
    if (shown.dataset.status !== main.dataset.status) { // started, finished, cancelled
      window.location.reload();
      return;
    }
    if (shown.dataset.revision !== seenRevision) { // the game moved on: an old refusal goes
      seenRevision = shown.dataset.revision;
      status.dataset.refused = "no";
    }
    pending = null;
    legal = null;
    hideOffers();
    const number = ++asked;
    cqApi("GET", base + "/legal-actions").then((answer) => {
      if (number !== asked) return;
      if (!answer.ok) { say(words(answer), true); return; }
      legal = answer.body;
      mark();
    }).catch(() => { if (number === asked) say("The server cannot be reached: try again.", true); });
  };

  const mark = () => {
    const picture = svg();
    if (!picture || !legal) return;
    picture.classList.toggle("my-turn", Boolean(legal.your_turn));
    if (legal.your_turn) {
      for (const [list, kind] of [[legal.moves, "move"], [legal.jumps, "jump"]]) {
        for (const square of list || []) {
          const target = picture.querySelector('[data-to="' + square + '"]');
          if (target) { target.classList.add("legal"); target.dataset.kind = kind; }
        }
      }
    }
    if (!busy && status.dataset.refused !== "yes") say((lastDone ? lastDone + " " : "") + turnText());
  };

  const clearPreview = () => {
    const picture = svg();
    if (picture) for (const old of picture.querySelectorAll(".preview")) old.remove();
  };

  // The bar of a wall (or a marker) drawn as it would stand; red when the server's list
  // of legal walls does not hold it.
  const preview = (target, refused) => {
    clearPreview();
    const picture = svg();
    const [x, y, width, height] = target.dataset.bar.split(" ");
    const bar = document.createElementNS(SVG_NS, "rect");
    for (const [name, value] of [["x", x], ["y", y], ["width", width], ["height", height], ["rx", "2"]]) {
      bar.setAttribute(name, value);
    }
    bar.setAttribute("class", "preview" + (refused ? " refused" : ""));
    bar.dataset.preview = target.dataset.slot || target.dataset.edge;
    bar.dataset.refused = refused ? "yes" : "no";
    picture.insertBefore(bar, picture.querySelector(".targets"));
  };
  const wallRefused = (slot) => !legal || !(legal.walls || []).includes(slot);

  // An action for this seat: `body` to POST at `path` (`method`), said as `what`.
  const send = (method, path, body, what) => {
    if (busy) return Promise.resolve(null);
    busy = true;
    lastDone = "";
    say(what + "…");
    return cqApi(method, path, body).then((answer) => {
      busy = false;
      if (answer.ok) {
        lastDone = what + ": done.";
        say(lastDone);
      } else if (answer.body && answer.body.reason === "stale_revision") {
        say("The game changed meanwhile: look at the board again (" + words(answer) + ").", true);
      } else {
        say(words(answer), true);
      }
      return answer;
    }).catch(() => {
      busy = false;
      say("The server cannot be reached: try again.", true);
      return null;
    });
  };
  const act = (type, to) => {
    const revision = Number(board().dataset.revision);
    return send("POST", base + "/actions", { type: type, to: to, base_revision: revision },
      (type === "wall" ? "Wall " : type === "jump" ? "Jump to " : "Move to ") + to);
  };
  const kindOf = (text) => {
    if (/^[a-z][0-9]{1,2}[hv]$/.test(text)) return "wall";
    return legal && (legal.jumps || []).includes(text) ? "jump" : "move";
  };

  const toggleMarker = (edge) => {
    const mine = svg().querySelector('[data-marker="' + edge + '"]');
    if (mine) return send("DELETE", base + "/markers/" + edge, undefined, "Marker " + edge + " removed");
    return send("POST", base + "/markers", { marker: edge }, "Marker " + edge);
  };

  // Pointing: a mouse previews a wall as it passes over its place; a finger cannot hover,
  // so its first tap previews and a second tap on the same wall places it.
  live.addEventListener("pointerdown", (event) => { touch = event.pointerType !== "mouse"; });
  live.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse") return;
    const target = event.target.closest && event.target.closest(".hit-wall, .hit-edge");
    if (!target || pending) return;
    if (target.classList.contains("hit-wall")) {
      if (legal && legal.your_turn) preview(target, wallRefused(target.dataset.slot));
    } else if (marking && marking.checked) {
      preview(target, false);
    }
  });
  live.addEventListener("pointerout", (event) => {
    if (event.pointerType === "mouse" && !pending && event.target.closest
        && event.target.closest(".hit-wall, .hit-edge")) clearPreview();
  });
  live.addEventListener("click", (event) => {
    const target = event.target.closest && event.target.closest(".hit, button");
    if (!target) return;
    if (target.matches("button")) { offerButton(target); return; }
    if (target.classList.contains("hit-square") && target.classList.contains("legal")) {
      pending = null;
      clearPreview();
      act(target.dataset.kind, target.dataset.to);
    } else if (target.classList.contains("hit-edge") && marking && marking.checked) {
      clearPreview();
      toggleMarker(target.dataset.edge);
    } else if (target.classList.contains("hit-wall") && legal && legal.your_turn) {
      const slot = target.dataset.slot;
      const refused = wallRefused(slot);
      if (touch && pending !== slot) {
        pending = slot;
        preview(target, refused);
        say(refused
          ? "Wall " + slot + " cannot stand there (shown in red): tap another edge."
          : "Wall " + slot + ": tap it again to place it, or tap another edge.");
        return;
      }
      pending = null;
      if (refused) {
        // the server says why (it overlaps, crosses, closes a path, no wall left, ...)
        preview(target, true);
        send("POST", base + "/actions", { type: "wall", to: slot, base_revision: Number(board().dataset.revision) },
          "Wall " + slot);
        return;
      }
      act("wall", slot);
    }
  });

  // Typed actions: "e4" moves (or jumps) there, "c3h" places a wall.
  const notationForm = document.getElementById("notation-form");
  notationForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const field = document.getElementById("notation");
    const text = field.value.trim().toLowerCase();
    if (!text) { say("Type a square (e4) to move there, or a wall (c3h, c3v).", true); return; }
    act(kindOf(text), text).then((answer) => { if (answer && answer.ok) field.value = ""; });
  });

  // Wall trading: an offer of one's own, and the others' offers in the panel.
  const hideOffers = () => {
    for (const item of live.querySelectorAll("[data-offer-key]")) {
      if (declined.has(item.dataset.offerKey)) item.hidden = true;
    }
  };
  const offerButton = (button) => {
    const item = button.closest("[data-offer-key]");
    if (button.dataset.decline) {
      declined.add(item.dataset.offerKey);
      item.hidden = true;
      say("Offer declined (it stays open for the others until its maker withdraws it).");
    } else if (button.dataset.withdraw) {
      send("DELETE", base + "/offers/me", undefined, "Offer withdrawn");
    } else if (button.dataset.trade) {
      send("POST", base + "/trades", { mode: button.dataset.trade, partner: button.dataset.partner },
        (button.dataset.trade === "buying" ? "Bought a wall from " : "Sold a wall to ") + button.dataset.partner);
    }
  };
  document.getElementById("offer-form").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-offer]");
    if (!button) return;
    const partner = document.getElementById("offer-partner").value;
    const body = { mode: button.dataset.offer };
    if (partner) body.partner = partner;
    send("POST", base + "/offers", body,
      "Offer to " + (body.mode === "selling" ? "sell" : "buy") + " a wall" + (partner ? " to " + partner : ""));
  });

  // Messages: to everybody, or privately to one player.
  document.getElementById("message-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const field = document.getElementById("message-text");
    const to = document.getElementById("message-to").value;
    const body = { text: field.value };
    if (to) body.to = to;
    send("POST", base + "/messages", body, to ? "Message to " + to : "Message").then((answer) => {
      if (answer && answer.ok) field.value = "";
    });
  });

  if (marking) {
    marking.addEventListener("change", () => {
      play.classList.toggle("marking-on", marking.checked);
      live.classList.toggle("marking-on", marking.checked);
      clearPreview();
      pending = null;
    });
  }

  new MutationObserver(refresh).observe(live, { childList: true });
  refresh();
}

// A live page without the controls (a waiting game, or a watcher): when a board of a
// game this user now plays comes (the game started with this user seated), the page's
// controls are fetched (the page anew, of which only the `#play` section is taken) and
// put under the board: the page plays from then on, without a reload.
function seatedLater(main) {
  const live = document.getElementById("live");
  let fetching = false;
  const observer = new MutationObserver(() => {
    const board = document.getElementById("board");
    if (fetching || !board || !board.dataset.seat) return;
    fetching = true;
    fetch(window.location.href, { credentials: "same-origin" })
      .then((answer) => (answer.ok ? answer.text() : null))
      .then((text) => {
        const fresh = text && new DOMParser().parseFromString(text, "text/html");
        const freshMain = fresh && fresh.getElementById("game");
        const freshPlay = fresh && fresh.getElementById("play");
        if (!freshMain || !freshPlay) { fetching = false; return; }
        observer.disconnect();
        main.className = freshMain.className;
        main.dataset.status = freshMain.dataset.status;
        live.after(document.importNode(freshPlay, true));
        playPage(main, document.getElementById("play"));
      })
      .catch(() => { fetching = false; });
  });
  observer.observe(live, { childList: true });
}

document.addEventListener("DOMContentLoaded", () => {
  const main = document.getElementById("game");
  if (!main) return;
  const play = document.getElementById("play");
  if (play) playPage(main, play);
  else if (main.dataset.live === "yes") seatedLater(main);
});
