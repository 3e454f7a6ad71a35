/** Settings → Media relay (docs/decisions.md §11): the S3-compatible bucket Threads fetches uploaded media from. */
import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { successTrue } from './common.js';

const fields = {
  kind: () => z.literal('s3').describe('s3: any S3-compatible storage (AWS S3, Cloudflare R2, Backblaze B2, MinIO)'),
  endpoint: () =>
    z
      .string()
      .max(2048)
      .describe("The storage's S3 address, e.g. https://s3.eu-central-1.amazonaws.com or http://192.168.1.5:9000"),
  region: () => z.string().max(64).describe('us-east-1 for MinIO; auto for Cloudflare R2'),
  bucket: () => z.string().max(63).describe('The bucket Herald puts files in (and deletes them from)'),
  prefix: () => z.string().max(200).describe('A folder inside the bucket, e.g. herald/ (may be empty)'),
  accessKeyId: () => z.string().max(256),
  urlTtlSeconds: () =>
    z
      .number()
      .int()
      .min(60)
      .max(604_800)
      .describe('How long a presigned address stays valid, s (S3 allows at most 7 days)'),
};

export const mediaRelaySchema = lazySchema(() =>
  z.object({
    kind: fields.kind(),
    endpoint: fields.endpoint(),
    region: fields.region(),
    bucket: fields.bucket(),
    prefix: fields.prefix(),
    accessKeyId: fields.accessKeyId(),
    publicBaseUrl: z
      .string()
      .nullable()
      .describe('Where the objects are public; null: Threads gets presigned addresses'),
    urlTtlSeconds: fields.urlTtlSeconds(),
  }),
);

export const mediaRelayResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    relay: mediaRelaySchema.nullable().describe('The relay without its secret; null when none is set up'),
  }),
);

export const setMediaRelayBody = lazySchema(() =>
  z
    .object({
      kind: fields.kind(),
      endpoint: fields.endpoint(),
      region: fields.region(),
      bucket: fields.bucket(),
      prefix: fields.prefix().optional(),
      accessKeyId: fields.accessKeyId(),
      secretAccessKey: z
        .string()
        .max(1024)
        .optional()
        .describe('Kept in the secret store, never shown again; leave out to keep the saved one'),
      publicBaseUrl: z
        .string()
        .max(2048)
        .nullable()
        .optional()
        .describe("Optional: the public address of the bucket's objects (a CDN or public bucket)"),
      urlTtlSeconds: fields.urlTtlSeconds().default(3600),
    })
    .strict(),
);

export const mediaRelayTestResponse = lazySchema(() =>
  z.object({
    success: successTrue,
    ok: z.boolean(),
    message: z.string().describe('What worked, or which step failed (put, fetch, delete) and why'),
  }),
);
