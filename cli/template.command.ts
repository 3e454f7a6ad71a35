import type { Command } from 'commander';
import { action, examples } from './action.js';
import { clientFor, globals, writeOptions } from './context.js';
import { keyValues, print } from './output.js';

export function registerTemplate(program: Command): void {
  const template = program
    .command('template')
    .description('Reusable head and tail text')
    .addHelpText(
      'after',
      examples(
        'herald template list',
        'herald template create --name Launch --tail "#buildinpublic"',
        'herald template get 3f2a…',
      ),
    );
  template
    .command('list')
    .description('List templates')
    .addHelpText('after', examples('herald template list'))
    .action(
      action(async (_opts: unknown, cmd: Command) => {
        const r = await clientFor(cmd).listTemplates();
        print(globals(cmd).output, r, {
          ids: r.templates.map((t) => t.uuid),
          rows: r.templates,
          columns: [
            { header: 'id', value: (t) => t.uuid },
            { header: 'name', value: (t) => t.name },
            { header: 'head', value: (t) => t.head_content_plain, max: 30 },
            { header: 'tail', value: (t) => t.tail_content_plain, max: 30 },
          ],
        });
      }),
    );
  template
    .command('get <id>')
    .description('Show one template')
    .addHelpText('after', examples('herald template get 3f2a…'))
    .action(
      action(async (id: string, _o: unknown, cmd: Command) => {
        const r = await clientFor(cmd).getTemplate(id);
        const t = r.template;
        print(globals(cmd).output, r, {
          ids: [t.uuid],
          text: keyValues([
            ['id', t.uuid],
            ['name', t.name],
            ['description', t.description],
            ['head', t.head_content_plain],
            ['tail', t.tail_content_plain],
            ['updated', t.updated_at],
          ]),
        });
      }),
    );
  template
    .command('create')
    .description('Create a template')
    .requiredOption('--name <name>', 'template name')
    .option('--description <text>', 'what it is for')
    .option('--head <text>', 'text put before the first post')
    .option('--tail <text>', 'text put after the last post')
    .addHelpText(
      'after',
      examples('herald template create --name Launch --head "🚀 New release" --tail "#buildinpublic"'),
    )
    .action(
      action(async (opts: { name: string; description?: string; head?: string; tail?: string }, cmd: Command) => {
        const r = await clientFor(cmd).createTemplate(
          { name: opts.name, description: opts.description, headContentPlain: opts.head, tailContentPlain: opts.tail },
          writeOptions(cmd),
        );
        const g = globals(cmd);
        print(g.output, r, {
          ids: [r.template.uuid],
          text: g.quiet ? r.template.uuid : `Created template ${r.template.name} (${r.template.uuid})`,
        });
      }),
    );
}
