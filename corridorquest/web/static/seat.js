// Corridor Quest: the seat panel of a waiting game's page (templates/seat_panel.html).
// "Take a seat": the API's join (cqApi of api.js, with the game's code when the page
// was opened with one). "Play as a guest": /web/games/ID/guest creates the guest, sets
// the browser's session cookie and seats it, in one step. Then the page loads again and
// shows the viewer as a player. Every refusal of the server is shown in its words.
"use strict";

(function () {
  const panel = document.getElementById("seat");
  if (!panel) return;
  const game = panel.dataset.game;
  const code = panel.dataset.code || "";
  const problem = document.getElementById("seat-problem");
  const say = (text) => { problem.textContent = text; };
  const refused = (body, status) =>
    say((body && body.message) || ("the server refused (" + status + ")"));

  const take = document.getElementById("take-seat");
  if (take) {
    take.addEventListener("click", () => {
      take.disabled = true;
      say("");
      cqApi("POST", "/games/" + game + "/players", code ? { invitation_code: code } : {})
        .then((answer) => {
          if (answer.ok) { window.location.reload(); return; }
          take.disabled = false;
          refused(answer.body, answer.status);
        })
        .catch(() => { take.disabled = false; say("the server cannot be reached"); });
    });
  }

  const form = document.getElementById("guest-form");
  if (form) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const button = form.querySelector("button");
      button.disabled = true;
      say("");
      const name = document.getElementById("guest-name").value.trim();
      fetch("/web/games/" + game + "/guest", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(code ? { username: name, code: code } : { username: name }),
      })
        .then((answer) => answer.json().catch(() => ({})).then((body) => {
          if (answer.ok) { window.location.reload(); return; }
          button.disabled = false;
          refused(body, answer.status);
        }))
        .catch(() => { button.disabled = false; say("the server cannot be reached"); });
    });
  }
})();
