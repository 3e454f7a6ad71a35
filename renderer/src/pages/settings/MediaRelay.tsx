/**
 * Settings → Media relay (docs/decisions.md §11): the S3-compatible bucket Threads fetches
 * uploaded media from. Set up like a network app: fields, Save, Test (put, fetch, delete a small
 * file; a failure names the step), Remove with confirmation. The secret is never shown again:
 * leaving it empty on a later save keeps the stored one.
 */
import { useEffect, useState } from 'react';
import { client } from '../../api';
import { confirmAction } from '../../components/undo';
import { ErrorText } from '../../components/ui';
import { useAction, useLoad } from '../../hooks';

const EMPTY = {
  endpoint: '',
  region: 'us-east-1',
  bucket: '',
  prefix: 'herald/',
  accessKeyId: '',
  secretAccessKey: '',
  publicBaseUrl: '',
  urlTtlSeconds: 3600,
};

export function MediaRelaySettings() {
  const relay = useLoad(() => client.getMediaRelay().then((r) => r.relay));
  const { busy, error, run } = useAction();
  const [form, setForm] = useState(EMPTY);
  const [result, setResult] = useState<{ ok: boolean; message: string } | undefined>();
  const saved = relay.data ?? null;
  useEffect(() => {
    if (saved) setForm({ ...saved, secretAccessKey: '', publicBaseUrl: saved.publicBaseUrl ?? '' });
  }, [saved]);
  const field = (name: keyof typeof EMPTY, label: string, extra: Record<string, unknown> = {}) => (
    <label className="field">
      {label}
      <input
        value={form[name]}
        autoComplete="off"
        onChange={(e) =>
          setForm({ ...form, [name]: name === 'urlTtlSeconds' ? Number(e.target.value) : e.target.value })
        }
        {...extra}
      />
    </label>
  );
  return (
    <section className="panel" aria-label="Media relay" data-media-relay>
      <h2>Media relay (Threads)</h2>
      <p className="muted">
        Threads downloads images and videos from a public address. Herald puts each file in a bucket you own (AWS S3,
        Cloudflare R2, Backblaze B2, MinIO) just before the post, gives Threads a short-lived link, and deletes the file
        once Threads has it. {saved ? `Set up: bucket "${saved.bucket}".` : 'Not set up yet.'}
      </p>
      <form
        aria-label="Media relay settings"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const { secretAccessKey, publicBaseUrl, ...rest } = form;
            const r = await client.setMediaRelay({
              kind: 's3',
              ...rest,
              ...(secretAccessKey ? { secretAccessKey } : {}),
              publicBaseUrl: publicBaseUrl || null,
            });
            void relay.reload();
            setResult(undefined);
            setForm({ ...form, secretAccessKey: '', prefix: r.relay?.prefix ?? form.prefix });
          });
        }}
      >
        {field('endpoint', 'Endpoint (the S3 address, e.g. https://s3.eu-central-1.amazonaws.com)', {
          required: true,
          placeholder: 'http://192.168.1.5:9000',
        })}
        <div className="row">
          {field('region', 'Region (auto for R2)', { required: true })}
          {field('bucket', 'Bucket', { required: true })}
          {field('prefix', 'Folder in the bucket')}
        </div>
        {field('accessKeyId', 'Access key id', { required: true })}
        {field('secretAccessKey', saved ? 'Secret access key (empty keeps the saved one)' : 'Secret access key', {
          type: 'password',
          required: !saved,
        })}
        {field('publicBaseUrl', 'Public address of the objects (optional; else Threads gets presigned links)', {
          placeholder: 'https://media.example.com',
        })}
        {field('urlTtlSeconds', 'How long a presigned link stays valid (seconds)', { type: 'number', min: 60 })}
        <div className="row">
          <button className="primary" type="submit" disabled={busy}>
            Save relay
          </button>
          <button
            type="button"
            disabled={busy || !saved}
            onClick={() => void run(async () => setResult(await client.testMediaRelay()))}
          >
            Test
          </button>
          {saved && (
            <button
              type="button"
              className="danger"
              disabled={busy}
              onClick={() => {
                if (
                  confirmAction('Remove the media relay? Threads posts with uploaded media cannot go out without it.')
                )
                  void run(async () => {
                    await client.removeMediaRelay();
                    void relay.reload();
                    setForm(EMPTY);
                    setResult(undefined);
                  });
              }}
            >
              Remove
            </button>
          )}
        </div>
      </form>
      <ErrorText error={relay.error ?? error} />
      {result && (
        <p className={result.ok ? 'ok' : 'bad'} role="status" data-relay-test-result>
          {result.ok ? '✓ ' : '✗ '}
          {result.message}
        </p>
      )}
    </section>
  );
}
