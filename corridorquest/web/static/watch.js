// Corridor Quest: the web pages' script (no build step, nothing from outside).
// The server renders everything (boards as SVG, panels as HTML, hidden information
// already hidden); this script only asks for it again when a stream says something
// changed, steps a finished game's replay, and refreshes the lobby. /tv has its own
// script after this one (tv.js), which uses the helpers below (replaceWith,
// whileVisible, oneAtATime).
"use strict";

// The element's content anew from `url` (HTML the server rendered); `done(answer)`
// after a success, `always()` after the attempt either way. Lists that scroll in their
// own box (`data-list`: a game's messages) keep the reader where it was (keepScroll).
function replaceWith(element, url, done, always) {
  fetch(url, { credentials: "same-origin" })
    .then((answer) => (answer.ok ? answer.text().then((text) => [answer, text]) : null))
    .then((found) => {
      if (found) {
        const restore = keepScroll(element);
        element.innerHTML = found[1];
        restore();
        if (done) done(found[0]);
      }
    })
    .catch(() => {})
    .finally(() => { if (always) always(); });
}

// Where each scrolling list (`data-list`) inside `element` stands, and a function that
// puts the new lists of the same names there again: a list at its top (the newest
// first) stays at the top, where new entries come; one scrolled down to older entries
// stays on the entry it showed first (`data-id`), wherever new entries put it.
function keepScroll(element) {
  const kept = {};
  for (const list of element.querySelectorAll("[data-list]")) {
    if (list.scrollTop <= 0) continue;
    const first = Array.from(list.children).find(
      (item) => item.offsetTop + item.offsetHeight > list.scrollTop);
    if (first && first.dataset.id) {
      kept[list.dataset.list] = { id: first.dataset.id, offset: first.offsetTop - list.scrollTop };
    }
  }
  return () => {
    for (const list of element.querySelectorAll("[data-list]")) {
      const was = kept[list.dataset.list];
      const item = was && list.querySelector('[data-id="' + was.id + '"]');
      if (item) list.scrollTop = item.offsetTop - was.offset;
    }
  };
}

const RETRY_FIRST = 10; // seconds (the server's documented retry_after)
const RETRY_MOST = 120;

// Keep the event stream `open()` returns while the page is visible. A hidden page (a
// background tab, a minimised window) lets go of its stream and opens a new one when it
// shows again: a browser opens at most six connections to a server and a stream holds
// one for as long as it is open, so six game pages in background tabs would leave none
// for a seventh page, nor for anything else of the server. A new stream's first events
// are the whole game: they bring the page up to date.
//
// A stream the server refuses (a 503 when it holds its most streams: EventSource then
// gives up for good, and does not say why) is opened again after the time the server
// advises: a plain request to the same address learns it (retry_after; the request is let
// go at once if it was admitted). A refusal that waiting cannot mend (a 4xx) ends it.
// `refused()` runs when a refused stream is to be opened again.
function whileVisible(open, refused) {
  let stream = null;
  let timer = null;
  let backoff = RETRY_FIRST;
  const connect = () => {
    const opened = open();
    opened.addEventListener("open", () => { backoff = RETRY_FIRST; });
    opened.addEventListener("error", () => {
      if (opened.readyState !== EventSource.CLOSED || stream !== opened) return;
      retryAfter(opened.url, backoff).then((seconds) => {
        if (seconds === null || stream !== opened) return;
        if (refused) refused();
        backoff = Math.min(RETRY_MOST, backoff * 2);
        timer = setTimeout(() => {
          timer = null;
          if (stream === opened) stream = connect();
        }, seconds * 1000);
      });
    });
    return opened;
  };
  const stop = () => {
    if (timer) { clearTimeout(timer); timer = null; }
    if (stream) stream.close();
    stream = null;
  };
  const onVisibility = () => {
    if (document.hidden && stream) {
      stop();
    } else if (!document.hidden && !stream) {
      stream = connect();
    }
  };
  document.addEventListener("visibilitychange", onVisibility);
  onVisibility();
  return {
    close() {
      document.removeEventListener("visibilitychange", onVisibility);
      stop();
    },
  };
}

// Seconds to wait before opening the stream at `url` again, or null: not again (the
// server refuses it for good). `backoff` when the server does not say.
function retryAfter(url, backoff) {
  const control = new AbortController();
  return fetch(url, { credentials: "same-origin", signal: control.signal })
    .then((answer) => {
      if (answer.ok) { control.abort(); return 1; } // admitted now: a stream soon
      if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) return null;
      const header = Number(answer.headers.get("Retry-After"));
      return answer.json()
        .then((body) => Number(body.retry_after) || header || backoff)
        .catch(() => header || backoff);
    })
    .then((seconds) => (seconds === null ? null : Math.max(1, seconds)))
    .catch(() => backoff);
}

// `work(done)` run at most once at a time: asked for while it runs, it runs once more
// after (so the last answer shown is never older than the last request).
function oneAtATime(work) {
  let busy = false;
  let again = false;
  const run = () => {
    if (busy) { again = true; return; }
    busy = true;
    work(() => {
      busy = false;
      if (again) { again = false; run(); }
    });
  };
  return run;
}

// Follow a game's events while the page is visible; `changed()` runs (at most once at
// a time) after events that bring something the page does not show.
//
// Every stream resumes from what the page shows: `since` is the position (`R.M`, the
// game's revision and the number of the last message) the server rendered the page at,
// then each event's id. So a move made between the page's rendering and its stream's
// opening (or while a hidden page had let go of its stream) comes as the stream's first
// events, and a connection's first `game` event at the position the page already has
// (nothing happened meanwhile) asks for nothing.
function follow(gameId, changed, code, since) {
  const run = oneAtATime(changed);
  let position = since || ""; // what the page shows: rendered, then each event's id
  return whileVisible(() => {
    const query = new URLSearchParams();
    if (code) query.set("invitation_code", code);
    if (position) query.set("since", position);
    const text = query.toString();
    const stream = new EventSource("/api/v1/games/" + gameId + "/events" + (text ? "?" + text : ""));
    let opened = position; // a connection's first event is its `game` (also on a reconnect)
    stream.addEventListener("open", () => { opened = position; });
    const take = (event) => {
      const first = opened;
      opened = null;
      if (event.lastEventId) position = event.lastEventId;
      if (event.type === "game" && first && event.lastEventId === first) return;
      run();
    };
    for (const name of ["game", "message", "presence"]) {
      stream.addEventListener(name, take);
    }
    return stream;
  });
}

function gamePage(main) {
  const gameId = main.dataset.game;
  const live = document.getElementById("live");
  // a private game's page opened with its join link: the code opens its parts too
  const code = main.dataset.code || "";
  const fragment = "/web/games/" + gameId + "/live" + (code ? "?code=" + encodeURIComponent(code) : "");
  if (main.dataset.live === "yes") {
    const follower = follow(gameId, (done) => {
      replaceWith(live, fragment, (answer) => {
        const status = answer.headers.get("X-Game-Status");
        if (status === "finished" || status === "cancelled") {
          follower.close();
          window.location.reload(); // the finished page has the replay control
        }
      }, done);
    }, code, main.dataset.since);
  }
  const replay = document.getElementById("replay");
  if (replay) stepper(replay, gameId, code);
}

// A finished game's replay: the board and the panel (walls left, turn, last actions) as
// they were after N actions, each step at its own address (/games/ID?at=N).
function stepper(replay, gameId, code) {
  const last = Number(replay.dataset.actions);
  const output = document.getElementById("step");
  const live = document.getElementById("live");
  let at = Number(replay.dataset.at);
  const load = oneAtATime((done) => {
    const asked = at;
    const withCode = code ? "&code=" + encodeURIComponent(code) : "";
    replaceWith(live, "/web/games/" + gameId + "/live?at=" + asked + withCode, () => {
      replay.dataset.shown = String(asked);
    }, done);
  });
  const show = (next) => {
    at = Math.max(0, Math.min(last, next));
    output.textContent = at + " / " + last;
    replay.dataset.at = String(at);
    const withCode = code ? "code=" + encodeURIComponent(code) : "";
    const address = at === last
      ? window.location.pathname + (withCode ? "?" + withCode : "")
      : "?at=" + at + (withCode ? "&" + withCode : "");
    window.history.replaceState(null, "", address);
    load();
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

function lobbyPage(main) {
  // Refreshed every 5 s while visible, and at once when it shows again.
  const refresh = () => replaceWith(main, main.dataset.refresh);
  setInterval(() => { if (!document.hidden) refresh(); }, 5000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
}

document.addEventListener("DOMContentLoaded", () => {
  const game = document.getElementById("game");
  if (game) gamePage(game);
  const lobby = document.getElementById("lobby");
  if (lobby) lobbyPage(lobby);
  const tournament = document.getElementById("tournament"); // refreshed as the lobby
  if (tournament) lobbyPage(tournament);
});
