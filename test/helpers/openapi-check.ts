/**
 * Checks real answers against the served OpenAPI document with a third-party validator (Ajv, JSON
 * Schema 2020-12, the dialect the document declares): each answer's status must be listed for its
 * operation, its content type must be the one listed, and a JSON body must validate against the
 * listed schema. Remembers which operations answered a success, so a test can say which routes
 * it did not reach.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body?: unknown;
}

export class OpenApiCheck {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { op: string; path: string; re: RegExp }[];
  /** `METHOD /path/{param}` of every operation that answered a 2xx. */
  readonly covered = new Set<string>();
  /** Every mismatch found: operation, status and what was wrong. */
  readonly problems: string[] = [];

  constructor(
    private readonly doc: Json,
    private readonly prefix: string,
  ) {
    (addFormats as unknown as (a: Ajv2020) => void)(this.ajv);
    this.templates = Object.keys(doc.paths).map((p) => ({
      op: p,
      path: p,
      re: new RegExp(`^${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** Every operation of the document, as `METHOD /path`. */
  operations(): string[] {
    return Object.entries(this.doc.paths as Json)
      .flatMap(([p, ops]) => Object.keys(ops as Json).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
  }

  /** The document's path template of a concrete request path (with or without the API prefix and query). */
  template(method: string, path: string): string | undefined {
    const bare = path.split('?')[0].replace(this.prefix, '');
    const hits = this.templates.filter((t) => t.re.test(bare) && this.doc.paths[t.path][method.toLowerCase()]);
    // A literal path wins over a template (/microblog/drafts/batch over /microblog/drafts/{id}).
    hits.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
    return hits[0]?.path;
  }

  check(method: string, path: string, r: Answer): void {
    const where = `${method.toUpperCase()} ${path.split('?')[0]} → ${r.status}`;
    const template = this.template(method, path);
    if (!template) return void this.problems.push(`${where}: no such operation in the document`);
    const op = this.doc.paths[template][method.toLowerCase()];
    const listed = op.responses?.[String(r.status)];
    if (!listed)
      return void this.problems.push(
        `${where}: status not listed (listed: ${Object.keys(op.responses ?? {}).join(', ')})`,
      );
    const type = (r.headers.get('content-type') ?? '').split(';')[0].trim();
    const content = listed.content as Json | undefined;
    if (!content) {
      if (r.text.length > 0 && r.status !== 204) this.problems.push(`${where}: a body the document does not list`);
    } else if (!content[type]) {
      this.problems.push(`${where}: content type ${type || '(none)'} not listed (${Object.keys(content).join(', ')})`);
    } else if (type === 'application/json') {
      const validate = this.validator(`${template} ${method} ${r.status}`, content[type].schema);
      const body = r.body !== undefined ? r.body : JSON.parse(r.text);
      if (!validate(body)) {
        const errs = (validate.errors ?? [])
          .slice(0, 5)
          .map(
            (e) =>
              `${e.instancePath || '/'} ${e.message}` +
              `${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`,
          );
        this.problems.push(`${where}: ${errs.join('; ')}`);
      }
    }
    if (r.status >= 200 && r.status < 300) this.covered.add(`${method.toUpperCase()} ${template}`);
  }

  private validator(key: string, schema: Json): ValidateFunction {
    let v = this.compiled.get(key);
    if (!v) {
      v = this.ajv.compile(this.inline(schema, true) as Json);
      this.compiled.set(key, v);
    }
    return v;
  }

  /** The schema with the document's component references inlined and nested dialect markers dropped. */
  private inline(node: unknown, root = false): unknown {
    if (Array.isArray(node)) return node.map((n) => this.inline(n));
    if (!node || typeof node !== 'object') return node;
    const o = node as Json;
    if (typeof o.$ref === 'string' && o.$ref.startsWith('#/components/schemas/')) {
      return this.inline(this.doc.components.schemas[o.$ref.slice('#/components/schemas/'.length)]);
    }
    const out: Json = {};
    for (const [k, v] of Object.entries(o)) if (!(k === '$schema' && !root)) out[k] = this.inline(v);
    return out;
  }
}
