// Corridor Quest: the pages' writes to the API (/api/v1), as a terminal client makes
// them, with the browser's session cookie. A write with the cookie needs the session's
// write token (X-CSRF-Token, from /web/csrf: callers.py); this file fetches it once per
// page and sends it with every write. No rule lives here: the server answers every
// write, and a refusal comes back with its reason and message to show in words.
"use strict";

let cqWriteToken = null;

function cqToken() {
  if (cqWriteToken) return Promise.resolve(cqWriteToken);
  return fetch("/web/csrf", { credentials: "same-origin" })
    .then((answer) => (answer.ok ? answer.json() : { csrf_token: "" }))
    .then((body) => { cqWriteToken = body.csrf_token || null; return cqWriteToken; });
}

// `cqApi("POST", "/games/7/actions", {...})` -> Promise of {ok, status, body}; `body` is
// the answer's JSON ({reason, message} for a refusal), or {} when it has none.
function cqApi(method, path, body) {
  const reading = method === "GET" || method === "HEAD";
  const headers = { Accept: "application/json" };
  const send = (token) => {
    if (token) headers["X-CSRF-Token"] = token;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return fetch("/api/v1" + path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((answer) => answer.text().then((text) => {
      let parsed = {};
      try { parsed = text ? JSON.parse(text) : {}; } catch (e) { parsed = { message: text }; }
      return { ok: answer.ok, status: answer.status, body: parsed };
    }));
  };
  return reading ? send(null) : cqToken().then(send);
}
