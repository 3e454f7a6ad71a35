/**
 * Mastodon's `language` on every path (docs/decisions.md §16 "Composer"), read from what the Mastodon
 * simulator stored: a draft published now, a draft fired by the scheduler, a draft without a
 * language (the setting defaultLanguage), and the single-network endpoint (its langs, else the
 * setting). Mastodon builds its own link cards: the status carries the link only, and the dry
 * run shows no card for it while it shows the language.
 */
import { describe, expect, it } from 'vitest';
import { clock, key, masto, mastoId, MIN, t, useSchedulerWorld } from '../helpers/scheduler-world.js';

useSchedulerWorld();

async function draft(text: string, language?: string | null): Promise<string> {
  const r = await t.call('POST', '/microblog/drafts', {
    key,
    body: {
      title: text,
      tweets: [{ content: text }],
      selectedAccountIds: [mastoId],
      ...(language !== undefined ? { language } : {}),
    },
  });
  expect(r.status, r.text).toBe(200);
  return r.body.draft.id;
}

const status = (text: string) => masto.state.statuses.find((s) => s.text === text);

describe('Mastodon language', () => {
  it("is the draft's language on the draft path (primary subtag), and the dry run says so with no card", async () => {
    const text = 'Bonjour tout le monde https://example.com/page';
    const id = await draft(text, 'fr-CA');
    const dry = await t.call('POST', '/microblog/publish', { key, body: { draftId: id, dryRun: true } });
    expect(dry.body.plan[0].posts[0]).toMatchObject({ language: 'fr-CA', linkCard: null });
    const r = await t.call('POST', '/microblog/publish', { key, body: { draftId: id } });
    expect(r.body.success, r.text).toBe(true);
    expect(status(text)?.language).toBe('fr');
  });

  it("is the draft's language when the scheduler fires it", async () => {
    const text = 'Guten Morgen aus dem Zeitplan';
    const id = await draft(text, 'de');
    const s = await t.call('POST', '/microblog/schedule', {
      key,
      body: {
        draftId: id,
        scheduledFor: new Date(clock.now() + 5 * MIN).toISOString(),
        targetAccounts: [{ accountId: mastoId, platform: 'fedblog' }],
        applyJitter: false,
      },
    });
    expect(s.status, s.text).toBe(200);
    clock.advance(6 * MIN);
    await t.server.scheduler!.tick();
    expect(status(text)?.language).toBe('de');
  });

  it('is the setting defaultLanguage for a draft without one, and on the single-network endpoint', async () => {
    await t.call('PUT', '/settings', { key, body: { defaultLanguage: 'es' } });
    const text = 'Sin idioma en el borrador';
    const id = await draft(text, null);
    expect((await t.call('GET', `/microblog/drafts/${id}`, { key })).body.draft.language).toBeNull();
    await t.call('POST', '/microblog/publish', { key, body: { draftId: id } });
    expect(status(text)?.language).toBe('es');
    const direct = await t.call('POST', '/fedblog/publish', {
      key,
      body: { accountUuid: mastoId, type: 'single', text: 'Direct without langs' },
    });
    expect(direct.status, direct.text).toBe(200);
    expect(status('Direct without langs')?.language).toBe('es');
    await t.call('POST', '/fedblog/publish', {
      key,
      body: { accountUuid: mastoId, type: 'single', text: 'Direct with langs', langs: ['it'] },
    });
    expect(status('Direct with langs')?.language).toBe('it');
  });

  it("a draft's language is checked and kept in canonical form", async () => {
    const bad = await t.call('POST', '/microblog/drafts', {
      key,
      body: { title: 'x', tweets: [{ content: 'x' }], language: 'not a tag!' },
    });
    expect(bad.status).toBe(400);
    const id = await draft('canonical', 'pt-br');
    expect((await t.call('GET', `/microblog/drafts/${id}`, { key })).body.draft.language).toBe('pt-BR');
    const upd = await t.call('PUT', `/microblog/drafts/${id}`, { key, body: { language: null, linkCard: false } });
    expect(upd.body.draft).toMatchObject({ language: null, linkCard: false });
  });
});
