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
