// Corridor Quest: the web pages' only script (no build step, nothing from outside).
// The server renders everything (boards as SVG, panels as HTML, hidden information
// already hidden); this script only asks for it again when a stream says something
// changed, steps a finished game's replay, and refreshes the lobby and the TV.
"use strict";

function replaceWith(element, url, done) {
  fetch(url, { credentials: "same-origin" })
    .then((answer) => (answer.ok ? answer.text().then((text) => [answer, text]) : null))
    .then((found) => {
      if (found) {
        element.innerHTML = found[1];
        if (done) done(found[0]);
      }
    })
    .catch(() => {});
}

// Keep the event stream `open()` returns while the page is visible. A hidden page (a
// background tab, a minimised window) lets go of its stream and opens a new one when it
// shows again: a browser opens at most six connections to a server and a stream holds
// one for as long as it is open, so six game pages in background tabs would leave none
// for a seventh page, nor for anything else of the server. A new stream's first events
// are the whole game: they bring the page up to date.
function whileVisible(open) {
  let stream = null;
  const onVisibility = () => {
    if (document.hidden && stream) {
      stream.close();
      stream = null;
    } else if (!document.hidden && !stream) {
      stream = open();
    }
  };
  document.addEventListener("visibilitychange", onVisibility);
  onVisibility();
  return {
    close() {
      document.removeEventListener("visibilitychange", onVisibility);
      if (stream) stream.close();
      stream = null;
    },
  };
}

// Follow a game's events while the page is visible; `changed()` runs (at most once at
// a time) after events.
function follow(gameId, changed) {
  let busy = false;
  let again = false;
  const run = () => {
    if (busy) { again = true; return; }
    busy = true;
    changed(() => {
      busy = false;
      if (again) { again = false; run(); }
    });
  };
  return whileVisible(() => {
    const stream = new EventSource("/api/v1/games/" + gameId + "/events");
    for (const name of ["game", "message", "presence"]) {
      stream.addEventListener(name, run);
    }
    return stream;
  });
}

function gamePage(main) {
  const gameId = main.dataset.game;
  const live = document.getElementById("live");
  if (main.dataset.live === "yes") {
    let first = !document.hidden; // the page shows the game as its first event does
    const follower = follow(gameId, (done) => {
      if (first) { first = false; done(); return; }
      replaceWith(live, "/web/games/" + gameId + "/live", (answer) => {
        const status = answer.headers.get("X-Game-Status");
        if (status === "finished" || status === "cancelled") {
          follower.close();
          window.location.reload(); // the finished page has the replay control
        }
        done();
      });
    });
  }
  const replay = document.getElementById("replay");
  if (replay) stepper(replay, gameId);
}

function stepper(replay, gameId) {
  const last = Number(replay.dataset.actions);
  const output = document.getElementById("step");
  let at = last;
  const show = (next) => {
    at = Math.max(0, Math.min(last, next));
    output.textContent = at + " / " + last;
    replay.dataset.at = String(at);
    replaceWith(document.getElementById("board"),
      "/api/v1/games/" + gameId + "/board.svg?at=" + at);
  };
  const steps = { first: () => 0, prev: () => at - 1, next: () => at + 1, last: () => last };
  replay.addEventListener("click", (event) => {
    const step = event.target.closest("button");
    if (step) show(steps[step.dataset.step]());
  });
  document.addEventListener("keydown", (event) => {
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    if (keys[event.key]) { event.preventDefault(); show(steps[keys[event.key]]()); }
  });
}

function tvPage(main) {
  // One stream for every board on the screen (a browser opens at most six connections
  // to a server: one stream per board would leave none for the pictures).
  const figures = {};
  for (const figure of main.querySelectorAll("figure[data-game]")) {
    // seen: shown as the game's first event shows it (not if the page loaded hidden)
    figures[figure.dataset.game] = { figure: figure, seen: !document.hidden };
  }
  const ids = Object.keys(figures);
  if (ids.length) {
    whileVisible(() => {
      const stream = new EventSource("/api/v1/games/events?ids=" + ids.join(","));
      stream.addEventListener("game", (event) => {
        const found = figures[String(JSON.parse(event.data).id)];
        if (!found) return;
        if (!found.seen) { found.seen = true; return; } // the page already shows it
        replaceWith(found.figure.querySelector(".board"),
          "/api/v1/games/" + found.figure.dataset.game + "/board.svg?caption=false");
      });
      return stream;
    });
  }
  const pages = Number(main.dataset.pages);
  const cycle = Number(main.dataset.cycle) * 1000;
  // Next page after a while (and the first again after the last); one page: reload it
  // now and then, so that new games show up.
  setTimeout(() => {
    const next = (Number(main.dataset.page) % pages) + 1;
    window.location.replace("/tv?page=" + next + "&cycle=" + main.dataset.cycle);
  }, pages > 1 ? cycle : cycle * 3);
}

function lobbyPage(main) {
  // Refreshed every 5 s while visible, and at once when it shows again.
  const refresh = () => replaceWith(main, main.dataset.refresh);
  setInterval(() => { if (!document.hidden) refresh(); }, 5000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
}

document.addEventListener("DOMContentLoaded", () => {
  const game = document.getElementById("game");
  if (game) gamePage(game);
  const tv = document.getElementById("tv");
  if (tv) tvPage(tv);
  const lobby = document.getElementById("lobby");
  if (lobby) lobbyPage(lobby);
});
