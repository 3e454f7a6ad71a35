import type { Template } from '../../contracts/templates.js';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import type { TemplateRow as Row, TemplatesRepo } from '../../db/repos/templates.repo.js';
import { HeraldError } from '../../core/errors.js';
import { htmlToPlain, plainToHtml, sanitizeContentHtml } from '../content/html.js';

export interface TemplateInput {
  name?: string;
  description?: string;
  headContentPlain?: string;
  tailContentPlain?: string;
  headContentHtml?: string;
  tailContentHtml?: string;
}

const toDto = (r: Row): Template => ({
  uuid: r.id,
  name: r.name,
  description: r.description,
  head_content_plain: r.headPlain,
  tail_content_plain: r.tailPlain,
  head_content_html: r.headHtml,
  tail_content_html: r.tailHtml,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

/** One side (head or tail): HTML wins when given, plain is derived from it; else the reverse. */
function side(plain: string | undefined, html: string | undefined): { plain: string; html: string } | undefined {
  if (html !== undefined) {
    const clean = sanitizeContentHtml(html);
    return { html: clean, plain: plain ?? htmlToPlain(clean) };
  }
  if (plain !== undefined) return { plain, html: plainToHtml(plain) };
  return undefined;
}

export class TemplatesService {
  constructor(
    private readonly deps: Deps,
    private readonly repo: TemplatesRepo,
  ) {}

  list(userId: string): Template[] {
    return this.repo.listOf(userId).map(toDto);
  }

  row(userId: string, id: string): Row {
    const row = this.repo.own(userId, id);
    if (!row) throw new HeraldError('NOT_FOUND', 'Template not found');
    return row;
  }

  get(userId: string, id: string): Template {
    return toDto(this.row(userId, id));
  }

  create(userId: string, input: TemplateInput & { name: string }): Template {
    const now = nowIso(this.deps.clock);
    const head = side(input.headContentPlain, input.headContentHtml) ?? { plain: '', html: '' };
    const tail = side(input.tailContentPlain, input.tailContentHtml) ?? { plain: '', html: '' };
    const row: Row = {
      id: this.deps.ids.uuid(),
      userId,
      name: input.name,
      description: input.description ?? '',
      headPlain: head.plain,
      headHtml: head.html,
      tailPlain: tail.plain,
      tailHtml: tail.html,
      createdAt: now,
      updatedAt: now,
    };
    this.repo.insert(row);
    return toDto(row);
  }

  update(userId: string, id: string, input: TemplateInput): Template {
    const row = this.row(userId, id);
    const head = side(input.headContentPlain, input.headContentHtml);
    const tail = side(input.tailContentPlain, input.tailContentHtml);
    const next: Row = {
      ...row,
      name: input.name ?? row.name,
      description: input.description ?? row.description,
      headPlain: head?.plain ?? row.headPlain,
      headHtml: head?.html ?? row.headHtml,
      tailPlain: tail?.plain ?? row.tailPlain,
      tailHtml: tail?.html ?? row.tailHtml,
      updatedAt: nowIso(this.deps.clock),
    };
    this.repo.update(next);
    return toDto(next);
  }

  delete(userId: string, id: string): void {
    const row = this.row(userId, id);
    this.repo.delete(row.id);
  }
}
