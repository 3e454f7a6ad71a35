import fs from 'node:fs';
import path from 'node:path';
import { backupResponse, settingsResponse, updateSettingsBody, updateSettingsResponse } from '../../contracts/settings.js';
import type { Services } from '../../domain/services.js';
import { HeraldError } from '../../core/errors.js';
import { defineRoute, type RouteDef } from '../route.js';
import { VERSION } from '../version.js';

const tag = 'Settings';

/** Install-wide settings belong to the owner (the first user). */
function isOwner(s: Services, userId: string): boolean {
  const first = s.deps.sqlite.prepare('SELECT id FROM users ORDER BY created_at, id LIMIT 1').get() as { id: string } | undefined;
  return first?.id === userId;
}

function requireOwner(s: Services, userId: string): void {
  if (!isOwner(s, userId)) throw new HeraldError('UNAUTHORIZED', 'Only the owner of this install can do this');
}

export const settingsRoutes = (s: Services): RouteDef[] => {
  // What every user's UI needs (version, grace, credits, tier); where the data and the secrets
  // live is the owner's business only, like the backup that writes there.
  const current = (userId: string) => {
    const c = s.deps.config;
    const shared = { version: VERSION, graceMinutes: c.graceMs / 60_000, monthlyCredits: c.monthlyCredits, defaultTier: c.defaultTier };
    return isOwner(s, userId) ? { ...shared, dataDir: c.dataDir, secretStore: s.deps.secrets.kind } : shared;
  };
  return [
    defineRoute({
      method: 'get', path: '/settings', tag, summary: 'Install settings (read-only facts and the editable ones)',
      description: 'dataDir and secretStore are shown to the owner\'s keys only.',
      response: settingsResponse, errors: ['UNAUTHORIZED'],
      handler: ({ auth }) => ({ success: true, settings: current(auth.user.id) }),
    }),
    defineRoute({
      method: 'put', path: '/settings', tag, summary: 'Change settings; saved to <data dir>/config.json and used from the next start',
      description: 'Environment variables still win over config.json. Owner only.',
      body: updateSettingsBody, response: updateSettingsResponse, errors: ['INVALID_INPUT', 'UNAUTHORIZED'],
      handler: ({ auth, body }) => {
        requireOwner(s, auth.user.id);
        const file = path.join(s.deps.config.dataDir, 'config.json');
        let saved: Record<string, unknown> = {};
        try { saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>; } catch { /* new file */ }
        if (body.graceMinutes !== undefined) saved.HERALD_GRACE_MINUTES = body.graceMinutes;
        if (body.monthlyCredits !== undefined) saved.HERALD_MONTHLY_CREDITS = body.monthlyCredits;
        if (body.defaultTier !== undefined) saved.HERALD_DEFAULT_TIER = body.defaultTier;
        const tmp = `${file}.tmp`;
        fs.writeFileSync(tmp, JSON.stringify(saved, null, 2), { mode: 0o600 });
        fs.renameSync(tmp, file);
        return { success: true, settings: { ...current(auth.user.id), ...body }, restartRequired: true };
      },
    }),
    defineRoute({
      method: 'post', path: '/backup', tag, bodyType: 'none', summary: 'Online backup of the database into <data dir>/backups (owner only)',
      response: backupResponse, errors: ['UNAUTHORIZED'],
      handler: async ({ auth }) => {
        requireOwner(s, auth.user.id);
        const dir = path.join(s.deps.config.dataDir, 'backups');
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        // A random suffix: two backups in the same millisecond must not write one file.
        const file = path.join(dir, `herald-${new Date(s.deps.clock.now()).toISOString().replace(/[:.]/g, '-')}-${s.deps.ids.token(4)}.db`);
        const started = Date.now();
        // Written beside its final name and renamed when whole, readable by its owner only (it
        // holds password and key hashes), like `herald backup`.
        const partial = `${file}.partial`;
        try {
          await s.deps.sqlite.backup(partial);
          fs.chmodSync(partial, 0o600);
          fs.renameSync(partial, file);
        } finally {
          fs.rmSync(partial, { force: true });
        }
        return { success: true, file, bytes: fs.statSync(file).size, seconds: (Date.now() - started) / 1000 };
      },
    }),
  ];
};
