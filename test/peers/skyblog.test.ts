/**
 * Bluesky accounts against a real PDS (@atproto/pds with a local PLC, offline): connecting through
 * Herald's HTTP API with an app password (the PDS taken from the DID document, the profile re-read,
 * a wrong password or an unknown handle refused), then the tokens: an expired access token
 * refreshed once for racing publishes, a fresh sign-in when the refresh token is dead too, and
 * needs_reauth when the app password is revoked. Every post is read back from the PDS itself.
 */
import { describe, expect, it } from 'vitest';
import { HeraldError } from '../../server/core/errors.js';
import { alice, bob, connect, key, pds, post, publish, rowOf, t, useSkyblogWorld } from './skyblog-world.js';

let aliceId: string;

useSkyblogWorld();

describe('connecting with an app password (POST /skyblog/auth)', () => {
  it('connects, lists the account, puts it in the Default set, and keeps the PDS from the DID document', async () => {
    // 127.0.0.1 here; the DID document names the PDS as localhost: Herald must take the latter.
    const loopback = pds.url.replace('localhost', '127.0.0.1');
    const r = await connect(alice, loopback);
    expect(r.status, r.text).toBe(200);
    expect(r.body.success).toBe(true);
    const account = r.body.account;
    aliceId = account.uuid;
    expect(account).toMatchObject({
      platform: 'skyblog',
      username: 'alice.test',
      platform_user_id: alice.did,
      status: 'active',
      followers_count: 0,
      following_count: 0,
    });

    const list = await t.call('GET', '/accounts', { key });
    expect(list.body.accounts.map((a: { uuid: string }) => a.uuid)).toContain(aliceId);
    const sets = await t.call('GET', '/social-sets', { key });
    const def = sets.body.socialSets.find((s: { isDefault: boolean }) => s.isDefault);
    expect(def.name).toBe('Default');
    expect(def.accounts).toEqual(
      expect.arrayContaining([{ accountId: aliceId, platform: 'skyblog', username: 'alice.test' }]),
    );

    const creds = await t.server.services.credentials.load(aliceId);
    expect(creds?.extra).toMatchObject({
      did: alice.did,
      service: pds.url,
      identifier: 'alice.test',
      appPassword: alice.appPassword,
    });
    expect(creds?.accessToken.split('.')).toHaveLength(3);
    expect(creds?.refreshToken).not.toBe(creds?.accessToken);
    expect(rowOf(aliceId).serverUrl).toBe(pds.url);
  });

  it(
    're-reads the profile (identify): without an appview the ' + "repo's own profile record names the account",
    async () => {
      await pds.xrpc('com.atproto.repo.putRecord', {
        token: alice.accessJwt,
        body: {
          repo: alice.did,
          collection: 'app.bsky.actor.profile',
          rkey: 'self',
          record: { $type: 'app.bsky.actor.profile', displayName: 'Alice Liddell' },
        },
      });
      await t.server.services.connections.refreshProfile(rowOf(aliceId).userId, aliceId);
      const r = await t.call('GET', `/accounts/${aliceId}`, { key });
      expect(r.body.account).toMatchObject({
        display_name: 'Alice Liddell',
        followers_count: 0,
        following_count: 0,
        status: 'active',
      });
    },
  );

  it('refuses a wrong app password with a message that says what to do, and adds no account', async () => {
    const before = (await t.call('GET', '/accounts', { key })).body.accounts.length;
    const r = await t.call('POST', '/skyblog/auth', {
      key,
      body: { identifier: bob.handle, appPassword: 'aaaa-bbbb-cccc-dddd', service: pds.url },
    });
    // The person's input to fix (issue #21 "Bad input"): a 4xx naming the field, not a 502.
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('INVALID_INPUT');
    expect(r.body.details).toEqual([expect.objectContaining({ path: 'appPassword' })]);
    expect(r.body.message).toMatch(/app password/i);
    expect(r.body.message).toMatch(/Invalid identifier or password/);
    expect((await t.call('GET', '/accounts', { key })).body.accounts.length).toBe(before);
  });

  it('a handle that does not resolve is a 400 naming the handle and what to check; no account', async () => {
    const before = (await t.call('GET', '/accounts', { key })).body.accounts.length;
    const r = await t.call('POST', '/skyblog/auth', {
      key,
      body: { identifier: 'nobody-here.test', appPassword: 'aaaa-bbbb-cccc-dddd', service: pds.url },
    });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toBe('INVALID_INPUT');
    expect(r.body.message).toMatch(/nobody-here\.test/);
    expect(r.body.message).toMatch(/check the handle/);
    expect((await t.call('GET', '/accounts', { key })).body.accounts.length).toBe(before);
  });
});

describe('tokens', () => {
  it('refreshes an expired access token once for 50 racing publishes, rotating the refresh token', async () => {
    const creds = (await t.server.services.credentials.load(aliceId))!;
    await t.server.services.credentials.save(aliceId, { ...creds, accessToken: pds.expired(creds.accessToken) });
    // The PDS itself says the token expired.
    const probe = await fetch(`${pds.url}/xrpc/com.atproto.server.getSession`, {
      headers: { authorization: `Bearer ${pds.expired(creds.accessToken)}` },
    });
    expect(await probe.json()).toMatchObject({ error: 'ExpiredToken' });

    const before = t.server.services.credentials.refreshCalls;
    const texts = Array.from({ length: 50 }, (_, i) => `race ${i}`);
    const refs = await Promise.all(texts.map((text) => publish(aliceId, post(text))));
    expect(t.server.services.credentials.refreshCalls - before).toBe(1);
    expect(new Set(refs.map((r) => r.id)).size).toBe(50);
    const onPds = (await pds.listPosts(alice.did)).map((r) => r.value.text);
    for (const text of texts) expect(onPds.filter((x: string) => x === text)).toHaveLength(1);

    const after = (await t.server.services.credentials.load(aliceId))!;
    // (An access JWT minted in the same second as the first one can be byte-identical to it: it
    // carries no nonce. The refresh JWT does, so that one must differ.)
    expect(after.accessToken).not.toBe(pds.expired(creds.accessToken));
    expect(after.refreshToken).not.toBe(creds.refreshToken);
    expect(after.extra?.appPassword).toBe(alice.appPassword);
    expect(rowOf(aliceId).status).toBe('active');
  });

  it('signs in again with the app password when the refresh token is dead too', async () => {
    const dave = await pds.createAccount('dave');
    const r = await connect(dave);
    expect(r.status, r.text).toBe(200);
    const id = r.body.account.uuid;
    const creds = (await t.server.services.credentials.load(id))!;
    // Revoke the session Herald holds (refresh token included), and expire its access token.
    await pds.xrpc('com.atproto.server.deleteSession', { token: creds.refreshToken, post: true });
    const dead = await fetch(`${pds.url}/xrpc/com.atproto.server.refreshSession`, {
      method: 'POST',
      headers: { authorization: `Bearer ${creds.refreshToken}` },
    });
    expect(dead.status).toBe(400);
    await t.server.services.credentials.save(id, { ...creds, accessToken: pds.expired(creds.accessToken) });
    const ref = await publish(id, post('After a fresh sign-in'));
    expect((await pds.getRecord(ref.id)).value.text).toBe('After a fresh sign-in');
    expect(rowOf(id).status).toBe('active');
  });

  it(
    'a refused refresh (app password revoked) makes the ' + 'account needs_reauth and the error TOKEN_EXPIRED',
    async () => {
      const carol = await pds.createAccount('carol');
      const r = await connect(carol);
      expect(r.status, r.text).toBe(200);
      const id = r.body.account.uuid;
      const creds = (await t.server.services.credentials.load(id))!;
      // The user revokes the app password on Bluesky: its sessions die and it no longer signs in.
      const main = await pds.xrpc<{ accessJwt: string }>('com.atproto.server.createSession', {
        body: { identifier: carol.handle, password: carol.password },
      });
      const names = await pds.xrpc<{ passwords: { name: string }[] }>('com.atproto.server.listAppPasswords', {
        token: main.accessJwt,
      });
      for (const p of names.passwords)
        await pds.xrpc('com.atproto.server.revokeAppPassword', { token: main.accessJwt, body: { name: p.name } });
      await t.server.services.credentials.save(id, { ...creds, accessToken: pds.expired(creds.accessToken) });

      const before = t.server.services.credentials.refreshCalls;
      const err = await publish(id, post('never')).catch((e) => e);
      expect(err).toBeInstanceOf(HeraldError);
      expect(err.code).toBe('TOKEN_EXPIRED');
      expect(err.message).toMatch(/carol\.test/);
      expect(t.server.services.credentials.refreshCalls - before).toBe(1);
      expect(rowOf(id).status).toBe('needs_reauth');
      const api = await t.call('GET', `/accounts/${id}`, { key });
      expect(api.body.account.status).toBe('needs_reauth');
      expect((await pds.listPosts(carol.did)).length).toBe(0);
    },
  );
});
