// Corridor Quest TV (/tv): the projector's script, loaded after watch.js, whose helpers
// it uses (replaceWith, whileVisible, oneAtATime). The server renders the boards and
// captions; this script fetches them again when the screen's event stream says a game
// changed, looks every TV_POLL seconds for games that started or ended, and turns the
// pages.
"use strict";

function tvPage(main) {
  // One stream for every board on the screen (a browser opens at most six connections
  // to a server: one stream per board would leave none for anything else). A `game`
  // event of a newer revision than a figure shows brings its board and caption anew.
  const updaters = {};
  const updater = (figure) => {
    const id = figure.dataset.game;
    if (!updaters[id] || updaters[id].figure !== figure) {
      updaters[id] = {
        figure: figure,
        run: oneAtATime((done) => {
          fetch("/web/tv/games/" + id, { credentials: "same-origin" })
            .then((answer) => (answer.ok ? answer.text().then((text) => [answer, text]) : null))
            .then((found) => {
              if (found) {
                figure.innerHTML = found[1];
                figure.dataset.revision = found[0].headers.get("X-Game-Revision") || "";
              }
              done();
            })
            .catch(() => done());
        }),
      };
    }
    return updaters[id].run;
  };
  let follower = null;
  let shown = "";
  const listen = () => {
    if (follower) follower.close();
    follower = null;
    const ids = Array.from(main.querySelectorAll("figure[data-game]"), (f) => f.dataset.game);
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
  // Games that start or end: the list of this page's games, every few seconds while
  // the page is visible; when it changed, the page's figures anew.
  const look = oneAtATime((done) => {
    if (document.hidden) { done(); return; }
    fetch("/web/tv/list?page=" + main.dataset.page, { credentials: "same-origin" })
      .then((answer) => (answer.ok ? answer.json() : null))
      .then((found) => {
        if (!found) { done(); return; }
        main.dataset.pages = String(found.pages);
        const joinable = (found.joinable || []).join(",");
        if (String(found.page) === main.dataset.page && found.games.join(",") === shown
            && joinable === (main.dataset.joinable || "")) {
          done();
          return;
        }
        replaceWith(main, "/web/tv/boards?page=" + found.page, (answer) => {
          main.dataset.page = answer.headers.get("X-TV-Page") || String(found.page);
          main.dataset.pages = answer.headers.get("X-TV-Pages") || main.dataset.pages;
          main.dataset.joinable = answer.headers.get("X-TV-Joinable") || "";
          listen();
        }, done);
      })
      .catch(() => done());
  });
  setInterval(look, Number(main.dataset.poll) || 1000);
  // The next page after a while (and the first again after the last).
  const cycle = Number(main.dataset.cycle) * 1000;
  const turn = () => {
    const pages = Number(main.dataset.pages);
    if (pages < 2) { setTimeout(turn, cycle); return; }
    const next = (Number(main.dataset.page) % pages) + 1;
    window.location.replace("/tv?page=" + next + "&cycle=" + main.dataset.cycle);
  };
  setTimeout(turn, cycle);
}

document.addEventListener("DOMContentLoaded", () => {
  const tv = document.getElementById("tv");
  if (tv) tvPage(tv);
});
