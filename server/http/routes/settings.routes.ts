import {
  backupResponse,
  settingsResponse,
  updateSettingsBody,
  updateSettingsResponse,
} from '../../contracts/settings.js';
import type { Services } from '../../domain/services.js';
import { defineRoute, type RouteDef } from '../route.js';
import { VERSION } from '../version.js';

const tag = 'Settings';

export const settingsRoutes = (s: Services): RouteDef[] => [
  defineRoute({
    method: 'get',
    path: '/settings',
    tag,
    summary: 'Install settings (read-only facts and the editable ones)',
    description: "dataDir and secretStore are shown to the owner's keys only.",
    response: settingsResponse,
    errors: ['UNAUTHORIZED'],
    handler: ({ auth }) => ({ success: true, settings: { version: VERSION, ...s.settings.view(auth.user.id) } }),
  }),
  defineRoute({
    method: 'put',
    path: '/settings',
    tag,
    summary: 'Change settings; saved to <data dir>/config.json (grace and tier from the next start, the rest at once)',
    description: 'Environment variables still win over config.json. Owner only.',
    body: updateSettingsBody,
    response: updateSettingsResponse,
    errors: ['INVALID_INPUT', 'UNAUTHORIZED'],
    handler: ({ auth, body }) => ({
      success: true,
      settings: { version: VERSION, ...s.settings.update(auth.user.id, body) },
      restartRequired: body.graceMinutes !== undefined || body.defaultTier !== undefined,
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/backup',
    tag,
    bodyType: 'none',
    summary: 'Online backup of the database into <data dir>/backups (owner only)',
    response: backupResponse,
    errors: ['UNAUTHORIZED'],
    handler: async ({ auth }) => ({ success: true, ...(await s.settings.backup(auth.user.id)) }),
  }),
];
