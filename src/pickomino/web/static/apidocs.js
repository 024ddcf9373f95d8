// Starts Swagger UI on /api/docs with the app's OpenAPI schema, as FastAPI's own docs page
// does, but from a file: the page then needs no inline script (see apidocs.html).

/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
});
