import { BlockList } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { isBlockedAddress, parseAllowList } from './blocked-address';
import { sendWebhook } from './send-webhook';

const off = new BlockList(); // the allow-list switched off (the production setting)
let r: Awaited<ReturnType<typeof startReceiver>>;
let second: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  [r, second] = await Promise.all([startReceiver(), startReceiver()]);
});
afterAll(() => Promise.all([r.close(), second.close()]));

const send = (url: string, allow = off) => sendWebhook({ url, allow, body: '{}', headers: { 'Content-Type': 'application/json' }, timeoutMs: 2000 });

describe('SSRF guard: address classes', () => {
  it.each([
    '127.0.0.1',
    '127.9.9.9',
    '10.0.0.1',
    '172.16.5.5',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '2002:a00:1::1',
  ])('refuses %s', (ip) => expect(isBlockedAddress(ip)).toBe(true));
  // IPv6 forms that carry an IPv4 address or tunnel to one: the whole ranges are refused (a gateway
  // may translate them to anything), in every spelling, including the public IPv4 they embed.
  it.each([
    '::7f00:1',
    '::127.0.0.1',
    '::8.8.8.8',
    '::a00:1',
    '0:0:0:0:0:0:7f00:1',
    '::ffff:10.0.0.1',
    '0:0:0:0:0:ffff:7f00:1',
    '::ffff:0:a9fe:a9fe',
    '64:ff9b::7f00:1',
    '64:ff9b::8.8.8.8',
    '64:ff9b:0:0:0:0:a9fe:a9fe',
    '64:ff9b:1::a00:1',
    '64:ff9b:1:ffff::1',
    '2002:7f00:1::1',
    '2002:808:808::1',
    '2002::1',
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:0:ffff::1',
  ])('refuses the embedded or tunnelled IPv4 form %s', (ip) => expect(isBlockedAddress(ip)).toBe(true));
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2001:4860:4860::8888'])('accepts public %s', (ip) =>
    expect(isBlockedAddress(ip)).toBe(false),
  );
  it('the allow-list lets listed addresses through, and only those', () => {
    const allow = parseAllowList('127.0.0.1,10.1.0.0/16,::1');
    expect(isBlockedAddress('127.0.0.1', allow)).toBe(false);
    expect(isBlockedAddress('10.1.2.3', allow)).toBe(false);
    expect(isBlockedAddress('::1', allow)).toBe(false);
    expect(isBlockedAddress('10.2.0.1', allow)).toBe(true);
    expect(isBlockedAddress('169.254.169.254', allow)).toBe(true);
    expect(() => parseAllowList('not-an-ip')).toThrow(/WEBHOOK_ALLOW_PRIVATE_HOSTS/);
  });
});

describe('SSRF guard at delivery time, allow-list off', () => {
  it.each([
    ['127.0.0.1', () => r.url],
    ['10.0.0.1', () => 'http://10.0.0.1/hook'],
    ['169.254.169.254 (cloud metadata)', () => 'http://169.254.169.254/latest/meta-data/'],
    ['[::1]', () => `http://[::1]:${r.port}/hook`],
    ['a hostname resolving to 127.0.0.1', () => `http://localhost:${r.port}/hook`],
  ])('refuses %s without connecting', async (_label, url) => {
    const before = r.received.length;
    const o = await send(url());
    expect(o.ok).toBe(false);
    expect(o.status).toBeNull();
    expect(o.error).toMatch(/refused|private/);
    expect(r.received.length).toBe(before);
  });

  it('follows no redirect, to a private address or anywhere else', async () => {
    const allowReceiverOnly = parseAllowList('127.0.0.1');
    for (const location of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/', second.url]) {
      r.setResponder((_q, res) => void res.writeHead(302, { Location: location }).end());
      const o = await send(r.url, allowReceiverOnly);
      expect(o).toMatchObject({ ok: false, status: 302, error: 'redirect not followed (302)' });
    }
    expect(second.received).toHaveLength(0);
    r.setResponder((_q, res) => void res.writeHead(200).end('ok'));
    expect((await send(r.url, allowReceiverOnly)).ok).toBe(true);
  });

  it('times out a receiver that never answers', async () => {
    r.setResponder(() => {});
    const o = await sendWebhook({ url: r.url, allow: parseAllowList('127.0.0.1'), body: '{}', headers: {}, timeoutMs: 300 });
    expect(o).toMatchObject({ ok: false, status: null, error: 'timed out after 300 ms' });
    r.setResponder((_q, res) => void res.writeHead(200).end('ok'));
  });
});
