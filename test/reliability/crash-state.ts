/**
 * What the crash matrix (crash-matrix.test.ts) reads after each kill: the publication parts, and a
 * snapshot of the database and the networks (integrity, claimed entries, parts sent but not
 * recorded, threads cut mid-way, publications settled ahead of their entries); and the shape of
 * one generation of the matrix (a crash point or a kill from outside, and what it must leave).
 */
import type { Platform } from '../../server/core/config.js';
import type { ChildServer } from '../helpers/child-server.js';
import type { Networks } from '../helpers/networks.js';
import { networkCounts, readDb } from './harness.js';

export interface PartState {
  publicationId: string;
  platform: Platform;
  status: string;
  position: number;
  text: string;
  pubStatus: string;
}

export const parts = (dataDir: string): PartState[] =>
  readDb(dataDir, (db) =>
    db
      .prepare(
        `SELECT pp.publication_id AS publicationId, p.platform, pp.status, pp.position, pp.text, p.status AS pubStatus
  FROM publication_parts pp JOIN publications p ON p.id = pp.publication_id ORDER BY pp.publication_id, pp.position`,
      )
      .all(),
  ) as PartState[];

/** What a kill left behind, read from the database and the networks. */
export async function snapshot(nets: Networks, dataDir: string) {
  const ps = parts(dataDir);
  const counts = await networkCounts(nets);
  const byPub = new Map<string, PartState[]>();
  for (const p of ps) byPub.set(p.publicationId, [...(byPub.get(p.publicationId) ?? []), p]);
  return readDb(dataDir, (db) => ({
    integrity: db.pragma('integrity_check', { simple: true }) as string,
    claimed: (db.prepare("SELECT COUNT(*) AS n FROM schedule_entries WHERE status = 'claimed'").get() as { n: number })
      .n,
    publishing: (db.prepare("SELECT id FROM publications WHERE status = 'publishing'").all() as { id: string }[]).map(
      (r) => r.id,
    ),
    sending: ps.filter((p) => p.status === 'sending').length,
    // Committed at the network, not recorded by Herald.
    unrecorded: ps.filter((p) => p.status === 'sending' && (counts[p.platform].get(p.text) ?? 0) > 0).length,
    midThread: [...byPub.values()].filter(
      (list) =>
        list.some((p) => p.status === 'sent') &&
        list.some((p) => p.status !== 'sent') &&
        list[0].pubStatus === 'publishing',
    ).length,
    partless: (
      db
        .prepare(
          'SELECT COUNT(*) AS n FROM publications p WHERE NOT EXISTS (SELECT 1 FROM publication_parts pp ' +
            'WHERE pp.publication_id = p.id)',
        )
        .get() as { n: number }
    ).n,
    // A publication settled whose schedule entry is not.
    settledAhead: (
      db
        .prepare(
          `SELECT COUNT(*) AS n FROM publications p JOIN schedule_entries e ON e.draft_id = p.draft_id AND e.account_id
            = p.account_id
      WHERE p.status IN ('published', 'failed', 'needs_review') AND e.status IN ('claimed', 'pending')`,
        )
        .get() as { n: number }
    ).n,
    done: (db.prepare("SELECT COUNT(*) AS n FROM schedule_entries WHERE status = 'done'").get() as { n: number }).n,
    pending: (
      db.prepare("SELECT COUNT(*) AS n FROM schedule_entries WHERE status IN ('pending', 'claimed')").get() as {
        n: number;
      }
    ).n,
  }));
}
export type Snapshot = Awaited<ReturnType<typeof snapshot>>;

export interface Generation {
  label: string;
  crashAt?: string;
  /** Kill from outside: when this resolves (after it is started), the harness sends SIGKILL. */
  killWhen?: (child: ChildServer) => Promise<void>;
  before?: () => void;
  afterKill?: () => void;
  /** What the kill must have left behind, so the point was really reached. */
  check?: (s: Snapshot, prev: Snapshot) => void;
}
