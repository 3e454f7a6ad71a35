/**
 * Install-wide settings and the online backup. What every user's UI needs (grace, credits, tier)
 * is shown to all; where the data and the secrets live is the owner's business only, like the
 * backup that writes there, and only the owner (the first user) changes settings.
 */
import { DEFAULT_LINKEDIN_VERSION } from '../../platforms/problog/rest.js';
import { checkLinkedinVersion } from '../alerts/upkeep.js';
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../deps.js';
import type { SettingsRepo } from '../../db/repos/settings.repo.js';
import { HeraldError } from '../../core/errors.js';
import { systemLanguage, validLanguage, type NotificationSettings, type XSettings } from '../../core/config.js';
import { canonicalTimeZone, machineTimeZone } from '../../../time/zones.js';
import type { UsersService } from '../users/users.service.js';

export interface SettingsChange {
  graceMinutes?: number;
  monthlyCredits?: number;
  defaultTier?: string;
  timeZone?: string;
  defaultLanguage?: string;
  xPriceUsd?: number;
  xPriceWithUrlUsd?: number;
  xMediaMetadataPriceUsd?: number;
  xReadPriceUsd?: number;
  xMonthlyCapUsd?: number | null;
  xCapAction?: 'warn' | 'refuse';
  xTier?: XSettings['tier'];
  notifications?: Partial<NotificationSettings>;
  fedblogHandOff?: boolean;
  requireAltText?: boolean;
  xMetrics?: boolean;
  linkedinVersion?: string;
}

export class SettingsService {
  constructor(
    private readonly deps: Deps,
    private readonly users: UsersService,
    private readonly repo: SettingsRepo,
    /** A new monthly grant applies to the month already granted too (the credits service's adjustment). */
    private readonly grantChanged: (from: number, to: number) => void = () => {},
  ) {}

  private requireOwner(userId: string): void {
    if (!this.users.isOwner(userId))
      throw new HeraldError('UNAUTHORIZED', 'Only the owner of this install can do this');
  }

  /**
   * The user's zone: the setting `timeZone` (the wizard's choice, else the machine's). GET /me
   * answers it, new social sets start in it, the credit month follows it: read it here, only here.
   */
  userZone(_userId: string): string {
    return this.deps.config.timeZone;
  }

  /** The settings this user may see (the version is the http layer's to add). */
  view(userId: string) {
    const c = this.deps.config;
    const shared = {
      graceMinutes: c.graceMs / 60_000,
      monthlyCredits: c.monthlyCredits,
      defaultTier: c.defaultTier,
      timeZone: c.timeZone,
      defaultLanguage: c.defaultLanguage,
      fedblogHandOff: c.fedblogHandOff,
      requireAltText: c.requireAltText,
      xMetrics: c.xMetrics,
      linkedinVersion: c.networks.problog.version ?? DEFAULT_LINKEDIN_VERSION,
      detected: { timeZone: machineTimeZone(), defaultLanguage: systemLanguage() },
      xPriceUsd: c.x.priceUsd,
      xPriceWithUrlUsd: c.x.priceWithUrlUsd,
      xMediaMetadataPriceUsd: c.x.mediaMetadataPriceUsd,
      xReadPriceUsd: c.x.readPriceUsd,
      xMonthlyCapUsd: c.x.monthlyCapUsd,
      xCapAction: c.x.capAction,
      xTier: c.x.tier,
      notifications: { ...c.notifications },
    };
    return this.users.isOwner(userId)
      ? {
          ...shared,
          dataDir: c.dataDir,
          secretStore: this.deps.secrets.kind,
          secretStoreLocked: this.deps.secrets.locked,
        }
      : shared;
  }

  /**
   * Saves the change to <data dir>/config.json; the zone, the language and the monthly grant
   * apply at once, the rest from the next start. Answers the settings as they will be.
   */
  update<T extends SettingsChange>(userId: string, change: T) {
    this.requireOwner(userId);
    const values: Record<string, unknown> = {};
    const zone = change.timeZone === undefined ? undefined : canonicalTimeZone(change.timeZone);
    if (change.timeZone !== undefined && !zone) {
      throw new HeraldError(
        'INVALID_INPUT',
        `"${change.timeZone}" is not a time zone this system knows; use an IANA name such as Europe/Berlin`,
        {
          details: [{ path: 'body.timeZone', message: 'unknown IANA zone' }],
        },
      );
    }
    const language = change.defaultLanguage === undefined ? undefined : validLanguage(change.defaultLanguage);
    if (change.defaultLanguage !== undefined && !language)
      throw new HeraldError(
        'INVALID_INPUT',
        `"${change.defaultLanguage}" is not a language tag (BCP 47, e.g. en, de, pt-BR)`,
        { details: [{ path: 'body.defaultLanguage', message: 'not BCP 47' }] },
      );
    if (change.linkedinVersion !== undefined) checkLinkedinVersion(change.linkedinVersion, this.deps.clock.now());
    // X's checks come first, so a refused change applies nothing.
    this.applyXAndNotifications(change, values);
    if (zone) {
      values.HERALD_TIME_ZONE = zone;
      this.deps.config.timeZone = zone;
      this.users.followZone(zone);
    }
    if (language) {
      values.HERALD_DEFAULT_LANGUAGE = language;
      this.deps.config.defaultLanguage = language;
    }
    if (change.requireAltText !== undefined) {
      values.HERALD_REQUIRE_ALT_TEXT = change.requireAltText;
      this.deps.config.requireAltText = change.requireAltText;
    }
    if (change.fedblogHandOff !== undefined) {
      values.HERALD_FEDBLOG_HAND_OFF = change.fedblogHandOff;
      this.deps.config.fedblogHandOff = change.fedblogHandOff;
    }
    if (change.xMetrics !== undefined) {
      values.HERALD_X_METRICS = change.xMetrics;
      this.deps.config.xMetrics = change.xMetrics;
    }
    if (change.linkedinVersion !== undefined) {
      // Applies at once: every LinkedIn call reads the network's settings when it is made.
      values.HERALD_LINKEDIN_VERSION = change.linkedinVersion;
      this.deps.config.networks.problog.version = change.linkedinVersion;
    }
    if (change.graceMinutes !== undefined) values.HERALD_GRACE_MINUTES = change.graceMinutes;
    if (change.monthlyCredits !== undefined) values.HERALD_MONTHLY_CREDITS = change.monthlyCredits;
    if (change.defaultTier !== undefined) values.HERALD_DEFAULT_TIER = change.defaultTier;
    this.repo.saveFile(path.join(this.deps.config.dataDir, 'config.json'), values);
    // Saved first: a grant adjusted for a setting that was then not kept would be a lie.
    const before = this.deps.config.monthlyCredits;
    if (change.monthlyCredits !== undefined && change.monthlyCredits !== before) {
      this.deps.config.monthlyCredits = change.monthlyCredits;
      this.grantChanged(before, change.monthlyCredits);
    }
    const { notifications: _n, ...rest } = change;
    return {
      ...this.view(userId),
      ...rest,
      ...(zone ? { timeZone: zone } : {}),
      ...(language ? { defaultLanguage: language } : {}),
    };
  }

  /** X's prices, cap and tier and the notification switches apply at once (they are read at each use). */
  private applyXAndNotifications(change: SettingsChange, values: Record<string, unknown>): void {
    const x = this.deps.config.x;
    const prices = [
      'xPriceUsd',
      'xPriceWithUrlUsd',
      'xMediaMetadataPriceUsd',
      'xReadPriceUsd',
      'xMonthlyCapUsd',
    ] as const;
    const negative = prices.find((k) => typeof change[k] === 'number' && !((change[k] as number) >= 0));
    if (negative)
      throw new HeraldError('INVALID_INPUT', `${negative} must be zero or more`, {
        details: [{ path: `body.${negative}`, message: 'below zero' }],
      });
    if (change.xPriceUsd !== undefined) {
      x.priceUsd = change.xPriceUsd;
      values.HERALD_X_PRICE_USD = change.xPriceUsd;
    }
    if (change.xPriceWithUrlUsd !== undefined) {
      x.priceWithUrlUsd = change.xPriceWithUrlUsd;
      values.HERALD_X_PRICE_WITH_URL_USD = change.xPriceWithUrlUsd;
    }
    if (change.xMediaMetadataPriceUsd !== undefined) {
      x.mediaMetadataPriceUsd = change.xMediaMetadataPriceUsd;
      values.HERALD_X_MEDIA_METADATA_PRICE_USD = change.xMediaMetadataPriceUsd;
    }
    if (change.xReadPriceUsd !== undefined) {
      x.readPriceUsd = change.xReadPriceUsd;
      values.HERALD_X_READ_PRICE_USD = change.xReadPriceUsd;
    }
    // config.json keeps '' for "no cap" (an empty value is no value when it is read back).
    if (change.xMonthlyCapUsd !== undefined) {
      x.monthlyCapUsd = change.xMonthlyCapUsd;
      values.HERALD_X_MONTHLY_CAP_USD = change.xMonthlyCapUsd ?? '';
    }
    if (change.xCapAction !== undefined) {
      x.capAction = change.xCapAction;
      values.HERALD_X_CAP_ACTION = change.xCapAction;
    }
    if (change.xTier !== undefined) {
      x.tier = change.xTier;
      values.HERALD_X_TIER = change.xTier;
    }
    const kinds = {
      published: 'HERALD_NOTIFY_PUBLISHED',
      failed: 'HERALD_NOTIFY_FAILED',
      missed: 'HERALD_NOTIFY_MISSED',
      reconnect: 'HERALD_NOTIFY_RECONNECT',
    } as const;
    for (const [kind, key] of Object.entries(kinds) as [keyof NotificationSettings, string][]) {
      const on = change.notifications?.[kind];
      if (on === undefined) continue;
      this.deps.config.notifications[kind] = on;
      values[key] = on ? '1' : '0';
    }
  }

  /** An online backup into <data dir>/backups (owner only). */
  backup(userId: string) {
    this.requireOwner(userId);
    const dir = path.join(this.deps.config.dataDir, 'backups');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // A random suffix: two backups in the same millisecond must not write one file.
    const file = path.join(
      dir,
      `herald-${new Date(this.deps.clock.now()).toISOString().replace(/[:.]/g, '-')}-${this.deps.ids.token(4)}.db`,
    );
    return this.repo.backup(file);
  }
}
