// Corridor Quest: the lobby's forms and Join buttons (a logged-in user's lobby). Each
// sends the request `cq` would send to the API (cqApi of api.js: the session cookie
// with its write token) and goes to the game's page when the server accepts it; a
// refusal is shown in words (the server's message), and nothing changed. No rule lives
// here: the server checks everything.
"use strict";

// Show `answer`'s refusal in `where` (a `.problem` element), or hide it (null).
function lobbyProblem(where, answer) {
  if (!answer) { where.hidden = true; where.textContent = ""; return; }
  const body = answer.body || {};
  where.textContent = body.message || body.reason || ("the server answered " + answer.status);
  where.hidden = false;
}

// Run `request()` (a cqApi promise) with `button` disabled; `done(answer)` after it.
function lobbySend(button, where, request, done) {
  if (button) button.disabled = true;
  lobbyProblem(where, null);
  request()
    .then(done)
    .catch(() => lobbyProblem(where, { status: 0, body: { message: "the server did not answer: try again" } }))
    .finally(() => { if (button) button.disabled = false; });
}

function gameAddress(id, code) {
  return "/games/" + id + (code ? "?code=" + encodeURIComponent(code) : "");
}

function newGameForm(form) {
  const problem = form.querySelector(".problem");
  const players = () => Number((form.querySelector('input[name="players"]:checked') || {}).value || 2);
  const showSeats = () => {
    for (const seat of form.querySelectorAll("[data-seat]")) {
      seat.hidden = Number(seat.dataset.seat) > players();
    }
  };
  form.addEventListener("change", showSeats);
  showSeats();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = {
      size: Number(form.elements.size.value),
      players: players(),
      masked: form.elements.masked.checked,
      invisible: form.elements.invisible.checked,
      private: form.elements.private.checked,
    };
    const invitees = form.elements.invitees.value.split(/[\s,]+/).filter((name) => name);
    if (invitees.length) body.invitees = invitees;
    const bots = [];
    for (const seat of form.querySelectorAll("[data-seat]")) {
      const level = seat.querySelector("select").value;
      if (!seat.hidden && level) bots.push(Number(level));
    }
    if (bots.length) body.bots = bots;
    lobbySend(form.querySelector('button[type="submit"]'), problem, () => cqApi("POST", "/games", body), (answer) => {
      if (answer.ok) window.location.assign(gameAddress(answer.body.id));
      else lobbyProblem(problem, answer);
    });
  });
}

// The game's number and code of what was typed: a number, or a join link
// (".../games/12?code=..."); the code field, when filled, counts over the link's.
function joinTarget(typed, code) {
  const text = typed.trim();
  let id = /^\d+$/.test(text) ? text : "";
  let linkCode = "";
  const found = /\/games\/(\d+)(?:\?(.*))?/.exec(text);
  if (found) {
    id = found[1];
    linkCode = new URLSearchParams(found[2] || "").get("code") || "";
  }
  return { id: id, code: code.trim() || linkCode };
}

function joinGame(button, where, id, code) {
  const body = code ? { invitation_code: code } : {};
  lobbySend(button, where, () => cqApi("POST", "/games/" + id + "/players", body), (answer) => {
    if (answer.ok || (answer.body || {}).reason === "already_joined") {
      window.location.assign(gameAddress(id, code));
    } else {
      lobbyProblem(where, answer);
    }
  });
}

function joinCodeForm(form) {
  const problem = form.querySelector(".problem");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const target = joinTarget(form.elements.game.value, form.elements.code.value);
    if (!target.id) {
      lobbyProblem(problem, { status: 0, body: { message: "give the game's number or its join link" } });
      return;
    }
    joinGame(form.querySelector('button[type="submit"]'), problem, target.id, target.code);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const created = document.getElementById("new-game");
  if (created) newGameForm(created);
  const byCode = document.getElementById("join-code");
  if (byCode) joinCodeForm(byCode);
  const lobby = document.getElementById("lobby");
  const problem = document.getElementById("lobby-problem");
  if (lobby && problem) {
    lobby.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-join]");
      if (button) joinGame(button, problem, button.dataset.join, "");
    });
  }
});
