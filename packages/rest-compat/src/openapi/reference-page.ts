/**
 * The REST API's reference page: one self-contained HTML file (no CDN, no framework) that reads the
 * OpenAPI document at `specUrl` and lays out every operation with its parameters, body, responses
 * and a curl example. Schemas are shown as JSON Schema, as the document holds them.
 */
export function referencePage(specUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Voxgate REST API reference</title>
<style>
  :root { color-scheme: light dark; --muted: #6b7280; --line: #d1d5db; font-family: system-ui, sans-serif; }
  body { margin: 0; display: grid; grid-template-columns: 17rem 1fr; min-height: 100vh; }
  nav { border-right: 1px solid var(--line); padding: 1rem; position: sticky; top: 0; height: 100vh; overflow: auto; box-sizing: border-box; }
  nav h2 { font-size: .8rem; text-transform: uppercase; color: var(--muted); margin: 1rem 0 .3rem; }
  nav a { display: block; font-size: .85rem; padding: .15rem 0; text-decoration: none; color: inherit; }
  main { padding: 1rem 2rem; max-width: 60rem; }
  section.op { border: 1px solid var(--line); border-radius: .4rem; padding: .8rem 1rem; margin: 1rem 0; }
  .method { font: bold .8rem monospace; padding: .1rem .4rem; border-radius: .25rem; color: #fff; background: #2563eb; }
  .method.post { background: #16a34a; } .method.put { background: #d97706; } .method.delete { background: #dc2626; }
  code, pre { font-family: ui-monospace, monospace; font-size: .82rem; }
  pre { background: rgba(127,127,127,.12); padding: .6rem; border-radius: .3rem; overflow: auto; max-height: 24rem; }
  table { border-collapse: collapse; width: 100%; font-size: .88rem; }
  td, th { border-bottom: 1px solid var(--line); text-align: left; padding: .3rem; vertical-align: top; }
  .muted { color: var(--muted); } summary { cursor: pointer; }
</style>
</head>
<body>
<nav id="nav"><strong>Voxgate REST API</strong><p class="muted">Loading…</p></nav>
<main id="main"><noscript>This page needs JavaScript; the document itself is at <a href="${specUrl}">${specUrl}</a>.</noscript></main>
<script type="module">
const specUrl = ${JSON.stringify(specUrl)};
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
};
const json = (value) => el("pre", {}, JSON.stringify(value, null, 2));
const resolve = (spec, schema) =>
  schema && schema.$ref ? spec.components.schemas[schema.$ref.split("/").pop()] : schema;

function curl(spec, path, method, op) {
  const base = spec.servers[0].url;
  let url = base + path.replace(/\\{(\\w+)\\}/g, (_, name) => {
    const param = (op.parameters || []).find((p) => p.name === name);
    return param && param.example !== undefined ? param.example : "{" + name + "}";
  });
  const query = (op.parameters || []).filter((p) => p.in === "query" && p.example !== undefined);
  if (query.length) url += "?" + query.map((p) => p.name + "=" + encodeURIComponent(p.example)).join("&");
  const lines = ["curl -X " + method.toUpperCase() + " '" + url + "'"];
  if (!op.security || op.security.length) lines.push("  -H 'Authorization: Bearer $VOXGATE_API_KEY'");
  const example = op.requestBody && op.requestBody.content["application/json"].example;
  if (example !== undefined) {
    lines.push("  -H 'content-type: application/json'", "  -d '" + JSON.stringify(example) + "'");
  }
  return lines.join(" \\\\\\n");
}

function render(spec) {
  document.title = spec.info.title + " " + spec.info.version;
  const nav = document.getElementById("nav");
  const main = document.getElementById("main");
  nav.replaceChildren(el("strong", {}, spec.info.title), el("div", { class: "muted" }, "version " + spec.info.version),
    el("a", { href: specUrl }, "openapi.json"));
  main.replaceChildren(el("h1", {}, spec.info.title), el("p", {}, spec.info.description));
  for (const tag of spec.tags) {
    nav.append(el("h2", {}, tag.name));
    main.append(el("h2", { id: "tag-" + tag.name }, tag.name));
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op.tags.includes(tag.name)) continue;
        nav.append(el("a", { href: "#" + op.operationId }, method.toUpperCase() + " " + path));
        const section = el("section", { class: "op", id: op.operationId },
          el("div", {}, el("span", { class: "method " + method }, method.toUpperCase()), " ", el("code", {}, path),
            op.security && op.security.length === 0 ? el("span", { class: "muted" }, "  public") : ""),
          el("p", {}, op.summary));
        if (op.description) section.append(el("p", { class: "muted" }, op.description));
        if (op.parameters) {
          const table = el("table", {}, el("tr", {}, el("th", {}, "Parameter"), el("th", {}, "In"), el("th", {}, "Schema"), el("th", {}, "Meaning")));
          for (const p of op.parameters) {
            table.append(el("tr", {}, el("td", {}, el("code", {}, p.name + (p.required ? "" : "?"))), el("td", {}, p.in),
              el("td", {}, el("code", {}, JSON.stringify(p.schema))), el("td", {}, p.description || "")));
          }
          section.append(table);
        }
        if (op.requestBody) {
          const types = Object.keys(op.requestBody.content).join(", ");
          section.append(el("details", {}, el("summary", {}, "Request body (" + types + ")"),
            json(op.requestBody.content["application/json"].schema)));
        }
        for (const [status, response] of Object.entries(op.responses)) {
          const schema = resolve(spec, response.content && response.content["application/json"].schema);
          section.append(el("details", {}, el("summary", {}, status + " " + response.description), schema ? json(schema) : ""));
        }
        section.append(el("details", {}, el("summary", {}, "Example"), el("pre", {}, curl(spec, path, method, op))));
        main.append(section);
      }
    }
  }
}

fetch(specUrl).then((response) => response.json()).then(render, (error) => {
  document.getElementById("main").replaceChildren(el("p", {}, "Could not load " + specUrl + ": " + error));
});
</script>
</body>
</html>
`;
}
