/** A readable API reference rendered from the OpenAPI document: one static page, no scripts, no CDN. */
type Json = Record<string, any>;

const esc = (s: unknown) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function schemaBlock(schema: unknown): string {
  return `<pre>${esc(JSON.stringify(schema, null, 2))}</pre>`;
}

export const DOCS_CSS = `body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;
color:#1d1d1f}
code,pre{font-family:ui-monospace,monospace}pre{background:#f4f4f6;padding:.8em;overflow:auto;font-size:12px}
section{border-top:1px solid #ddd;padding:.5em 0}
.m{display:inline-block;min-width:4em;font-size:12px;padding:2px 6px;border-radius:4px;color:#fff;background:#555}
.get{background:#2b7a3d}.post{background:#1f5fbf}.put{background:#a66a00}.delete{background:#b3261e}
.patch{background:#6b3fa0}`;

export function renderDocsPage(doc: Json): string {
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(ops as Json)) {
      const o = op as Json;
      const params = (o.parameters as Json[])
        .map((p) => `<li><code>${esc(p.name)}</code> (${esc(p.in)}${p.required ? ', required' : ''})</li>`)
        .join('');
      const body = o.requestBody
        ? `<details><summary>Request body</summary>` +
          `${schemaBlock(Object.values(o.requestBody.content as Json)[0].schema)}</details>`
        : '';
      const responses = Object.entries(o.responses as Json)
        .map(([st, r]) => `<li><b>${esc(st)}</b> ${esc((r as Json).description)}</li>`)
        .join('');
      const ok = Object.values((o.responses as Json)[Object.keys(o.responses)[0]].content ?? {})[0] as Json | undefined;
      const verb = `<span class="m ${esc(method)}">${esc(method.toUpperCase())}</span>`;
      const keyNote = o.security?.length ? '' : ' <small>(no key)</small>';
      const response = ok ? `<details><summary>Response body</summary>${schemaBlock(ok.schema)}</details>` : '';
      const html = `<section id="${esc(o.operationId)}"><h3>${verb} <code>/api/v1${esc(path)}</code>${keyNote}</h3>
<p>${esc(o.summary)}</p>${o.description ? `<p>${esc(o.description)}</p>` : ''}
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}${body}
${response}<h4>Responses</h4><ul>${responses}</ul></section>`;
      const tag = (o.tags as string[])[0];
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const nav = [...byTag.keys()]
    .map((t) => `<li><a href="#tag-${esc(t.replace(/\W+/g, '-'))}">${esc(t)}</a></li>`)
    .join('');
  const sections = [...byTag]
    .map(([t, ops]) => `<h2 id="tag-${esc(t.replace(/\W+/g, '-'))}">${esc(t)}</h2>${ops.join('\n')}`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Herald API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/api/v1/docs.css"></head>
<body><h1>Herald API reference <small>v${esc(doc.info.version)}</small></h1>
${(doc.info.description as string)
  .split('\n\n')
  .map((p) => `<p>${esc(p)}</p>`)
  .join('')}
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1).
Authenticate with the <code>svc-key</code> header.</p>
<ul>${nav}</ul>${sections}</body></html>`;
}
