// Starts the Swagger UI of /api-docs (a file: the page's policy allows no inline script).
"use strict";
window.addEventListener("load", function () {
  const element = document.getElementById("openapi");
  window.ui = SwaggerUIBundle({
    url: element.dataset.url,
    dom_id: "#openapi",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout",
  });
});
