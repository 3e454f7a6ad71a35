/**
 * OAuth `state` values: 128 random bits plus the issue time, HMAC-signed for one purpose, base64url
 * as the spec asks; single-use (a hash is stored and consumed atomically) and valid 10 minutes.
 * A forged, replayed, expired or mismatched state is refused before any token call.
 */
import crypto from 'node:crypto';
import { nowIso } from '../../core/clock.js';
import { type Deps } from '../deps.js';
import type { OAuthStatesRepo } from '../../db/repos/accounts.repo.js';
import { HeraldError } from '../../core/errors.js';

const TTL_MS = 10 * 60_000;
const NONCE = 16,
  TS = 8,
  MAC = 16;

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

export class OAuthStates {
  /**
   * Per process: a flow must finish in the process that started it (within 10 minutes anyway).
   * Drawn on the first flow, so a start that signs nothing does not load node:crypto.
   */
  private keyBytes: Buffer | undefined;
  private get key(): Buffer {
    return (this.keyBytes ??= crypto.randomBytes(32));
  }

  constructor(
    private readonly deps: Deps,
    private readonly repo: OAuthStatesRepo,
  ) {}

  private mac(purpose: string, body: Buffer): Buffer {
    return crypto.createHmac('sha256', this.key).update(purpose).update('\0').update(body).digest().subarray(0, MAC);
  }

  create(purpose: string, data: Record<string, unknown>): string {
    const now = this.deps.clock.now();
    const body = Buffer.alloc(NONCE + TS);
    crypto.randomFillSync(body, 0, NONCE);
    body.writeBigUInt64BE(BigInt(now), NONCE);
    const state = Buffer.concat([body, this.mac(purpose, body)]).toString('base64url');
    this.repo.purge(new Date(now - 86_400_000).toISOString());
    this.repo.insert({
      stateHash: sha256(state),
      purpose,
      data: JSON.stringify(data),
      expiresAt: new Date(now + TTL_MS).toISOString(),
      createdAt: nowIso(this.deps.clock),
    });
    return state;
  }

  /** Returns the flow's data and burns the state, or throws INVALID_INPUT. */
  consume<T = Record<string, unknown>>(purpose: string, state: unknown): T {
    const bad = (why: string) =>
      new HeraldError('INVALID_INPUT', `This sign-in link is not valid (${why}); start again`, {
        details: [{ path: 'state', message: why }],
      });
    if (typeof state !== 'string' || state.length > 200) throw bad('malformed state');
    const raw = Buffer.from(state, 'base64url');
    if (raw.length !== NONCE + TS + MAC || raw.toString('base64url') !== state) throw bad('malformed state');
    const body = raw.subarray(0, NONCE + TS);
    if (!crypto.timingSafeEqual(raw.subarray(NONCE + TS), this.mac(purpose, body)))
      throw bad('state was not issued for this flow');
    const now = this.deps.clock.now();
    const issued = Number(body.readBigUInt64BE(NONCE));
    if (now - issued > TTL_MS || issued - now > 60_000) throw bad('state expired');
    const data = this.repo.consume(sha256(state), purpose, new Date(now).toISOString());
    if (data === undefined) throw bad('state already used or expired');
    return JSON.parse(data) as T;
  }
}

/** PKCE (RFC 7636) S256 pair. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(48).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}
