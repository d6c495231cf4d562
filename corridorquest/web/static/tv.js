// Corridor Quest TV (/tv): the projector's script, loaded after watch.js, whose helpers
// it uses (replaceWith, whileVisible, oneAtATime). The server renders the boards and
// captions; this script fetches a board and its caption anew when the screen's event
// stream says its game changed, looks every TV_POLL seconds for games that started or
// ended (and for a board whose change the stream did not bring, or a tournament's
// standings that changed), keeps a game that ended on the screen with its result for a
// while, and turns the pages: all without a reload.
"use strict";

function tvPage(main) {
  const poll = Number(main.dataset.poll) || 1000;
  const linger = Number(main.dataset.linger) * 1000;
  const cycle = Number(main.dataset.cycle) * 1000;
  let wanted = main.dataset.page; // the page to show (the next one when the pages turn)
  // a tournament's screen (/tv?tournament=ID): its boards and its standings
  const tournament = main.dataset.tournament
    ? "&tournament=" + encodeURIComponent(main.dataset.tournament) : "";

  // A figure's board and caption anew, at most one request at a time per figure. A
  // game that ended is marked with the time its end was seen (data-ended).
  const updaters = new WeakMap();
  const updater = (figure) => {
    let run = updaters.get(figure);
    if (!run) {
      run = oneAtATime((done) => {
        fetch("/web/tv/games/" + figure.dataset.game, { credentials: "same-origin" })
          .then((answer) => (answer.ok ? answer.text().then((text) => [answer, text]) : null))
          .then((found) => {
            if (found) {
              figure.innerHTML = found[1];
              figure.dataset.revision = found[0].headers.get("X-Game-Revision") || "";
              figure.dataset.status = found[0].headers.get("X-Game-Status") || "";
              if (figure.dataset.status !== "started" && !figure.dataset.ended) {
                figure.dataset.ended = String(Date.now());
              }
            }
            done();
          })
          .catch(() => done());
      });
      updaters.set(figure, run);
    }
    return run;
  };
  const figures = () => Array.from(main.querySelectorAll("figure[data-game]"));

  // One stream for every board on the screen (a browser opens at most six connections
  // to a server: one stream per board would leave none for anything else). A `game`
  // event of a newer revision than a figure shows brings its board and caption anew.
  let follower = null;
  let shown = "";
  const listen = () => {
    if (follower) follower.close();
    follower = null;
    const ids = figures().map((f) => f.dataset.game);
    shown = ids.join(",");
    if (!ids.length) return;
    follower = whileVisible(() => {
      const stream = new EventSource("/api/v1/games/events?ids=" + shown);
      stream.addEventListener("game", (event) => {
        const game = JSON.parse(event.data);
        const figure = main.querySelector('figure[data-game="' + Number(game.id) + '"]');
        if (figure && figure.dataset.revision !== String(game.revision)) updater(figure)();
      });
      return stream;
    });
  };
  listen();

  // Whether the screen waits before showing the new list: a game that left it (it
  // ended) shows first how it ended, for `linger` ms after that was seen; never longer
  // than `linger` ms in all (`heldSince`), so new games are not kept off the screen.
  let heldSince = null;
  const holding = (found, now) => {
    if (!linger || String(found.page) !== main.dataset.page) return false;
    let hold = false;
    for (const figure of figures()) {
      if (found.games.includes(Number(figure.dataset.game))) continue;
      if (!figure.dataset.ended) {
        updater(figure)(); // its last state: who won (if the stream did not say)
        hold = true;
      } else if (figure.dataset.status === "finished"
                 && now - Number(figure.dataset.ended) < linger) {
        hold = true;
      }
    }
    if (!hold) return false;
    if (heldSince === null) heldSince = now;
    return now - heldSince < linger;
  };

  // The list of the page's games, every `poll` ms while the page is visible: boards
  // whose revision changed unseen are fetched anew; when the games changed, the page's
  // figures anew (and the address says which page shows).
  const look = oneAtATime((done) => {
    if (document.hidden) { done(); return; }
    fetch("/web/tv/list?page=" + wanted + tournament, { credentials: "same-origin" })
      .then((answer) => (answer.ok ? answer.json() : null))
      .then((found) => {
        if (!found) { done(); return; }
        main.dataset.pages = String(found.pages);
        const revisions = found.revisions || {};
        for (const figure of figures()) {
          const revision = revisions[figure.dataset.game];
          if (revision !== undefined && figure.dataset.revision !== String(revision)) {
            updater(figure)();
          }
        }
        const joinable = (found.joinable || []).join(",");
        if (String(found.page) === main.dataset.page && found.games.join(",") === shown
            && joinable === (main.dataset.joinable || "")
            && (found.standings || "") === (main.dataset.standings || "")) {
          heldSince = null;
          done();
          return;
        }
        if (holding(found, Date.now())) { done(); return; }
        heldSince = null;
        replaceWith(main, "/web/tv/boards?page=" + found.page + tournament, (answer) => {
          main.dataset.page = answer.headers.get("X-TV-Page") || String(found.page);
          main.dataset.pages = answer.headers.get("X-TV-Pages") || main.dataset.pages;
          main.dataset.joinable = answer.headers.get("X-TV-Joinable") || "";
          main.dataset.standings = answer.headers.get("X-TV-Standings") || "";
          wanted = main.dataset.page;
          const query = new URLSearchParams(window.location.search);
          if (query.get("page") !== main.dataset.page) {
            query.set("page", main.dataset.page);
            window.history.replaceState(null, "", "?" + query.toString());
          }
          listen();
        }, done);
      })
      .catch(() => done());
  });
  setInterval(look, poll);

  // The next page after a while (and the first again after the last), in place.
  const turn = () => {
    const pages = Number(main.dataset.pages);
    if (pages >= 2) {
      wanted = String((Number(main.dataset.page) % pages) + 1);
      look();
    }
    setTimeout(turn, cycle);
  };
  setTimeout(turn, cycle);
}

document.addEventListener("DOMContentLoaded", () => {
  const tv = document.getElementById("tv");
  if (tv) tvPage(tv);
});
