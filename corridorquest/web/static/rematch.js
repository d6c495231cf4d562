// Corridor Quest: the "Rematch" button of a finished game's page, for its players. It
// asks the API for the same game again (POST /api/v1/games/{id}/rematch, with cqApi of
// api.js), which joins the rematch another player asked for first ("Accept the
// rematch") or answers the one the player is in ("Go to the rematch"), and opens the
// game's page; a refusal is shown in the server's words.
"use strict";

(() => {
  const button = document.getElementById("rematch-button");
  const said = document.getElementById("rematch-status");
  if (!button || !said) return;
  // Another player's ask shows here within seconds (a finished game's page holds no
  // stream): while the page is seen, its game is read again every REFRESH_MS (at most
  // for REFRESH_FOR_MS), and the button's words follow its `rematch` as the server's do
  // (web/game_data.py: rematch_words).
  const REFRESH_MS = 3000;
  const REFRESH_FOR_MS = 15 * 60 * 1000;
  const began = Date.now();
  const me = button.dataset.me;
  let told = ""; // what the last look said (a refusal's words stay until the rematch changes)
  const timer = setInterval(() => {
    if (Date.now() - began > REFRESH_FOR_MS) {
      clearInterval(timer);
      return;
    }
    if (document.hidden || button.disabled) return;
    cqApi("GET", "/games/" + button.dataset.game).then((answer) => {
      if (!answer.ok || button.disabled) return;
      const rematch = answer.body.rematch;
      const mine = Boolean(rematch) && (rematch.players.includes(me) || rematch.admin === me);
      button.textContent = !rematch ? "Rematch" : mine ? "Go to the rematch" : "Accept the rematch";
      const offer = rematch && !mine ? rematch.admin + " asks for a rematch." : "";
      if (offer !== told) {
        said.textContent = offer;
        told = offer;
      }
    }).catch(() => {});
  }, REFRESH_MS);
  button.addEventListener("click", () => {
    button.disabled = true;
    said.textContent = "Rematch…";
    cqApi("POST", "/games/" + button.dataset.game + "/rematch").then((answer) => {
      if (answer.ok) {
        window.location.assign("/games/" + answer.body.id);
        return;
      }
      button.disabled = false;
      said.textContent = answer.body.message || answer.body.reason || "the server answered " + answer.status;
    }).catch(() => {
      button.disabled = false;
      said.textContent = "The server cannot be reached: try again.";
    });
  });
})();
