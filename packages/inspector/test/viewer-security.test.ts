import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInspectedDatabase, startViewer } from '../src/index.js';
import { runCtxkit, startCtxkitView } from './cli-process.js';
import { CONVERSATION, recordConversation } from './recorded-conversation.js';

const { file } = await recordConversation(2);
let view: Awaited<ReturnType<typeof startCtxkitView>>;
let port: number;

beforeAll(async () => {
  view = await startCtxkitView(file);
  port = Number(new URL(view.url).port);
});

afterAll(async () => {
  expect(await view.stop()).toBe(0);
});

/** One raw HTTP request to the viewer, its header lines as given (a forged Host among them). */
function rawRequest(
  lines: string[],
  to = port,
): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(to, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += String(chunk);
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', ...rest] = received.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
      resolve({ status, headers: head.toLowerCase(), body: rest.join('\r\n\r\n') });
    });
    socket.write(`${[...lines, 'Connection: close'].join('\r\n')}\r\n\r\n`);
  });
}

/** The header's directives by name: `script-src` → its sources. */
function policyOf(header: string): Map<string, string[]> {
  return new Map(
    header
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((words) => words[0] !== '')
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

/** The CSP source of an inline element's text, the way a browser hashes it. */
function hashOf(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

describe('ctxkit view answers only requests made to it by name', () => {
  it('refuses a forged, a missing or a wrong Host with 403 and no content', async () => {
    const forged = [
      `Host: evil.example:${port}`,
      `Host: 127.0.0.1.evil.example:${port}`,
      `Host: localhost.evil.example:${port}`,
      `Host: 127.0.0.1:${port + 1}`,
      'Host: 127.0.0.1',
      'Host: localhost',
      `Host: [::1]:${port}`,
      `Host: 0.0.0.0:${port}`,
    ];
    for (const path of ['/', `/api/conversation?id=${CONVERSATION}`, '/api/conversations']) {
      for (const host of forged) {
        const response = await rawRequest([`GET ${path} HTTP/1.1`, host]);
        expect([host, response.status, response.body]).toEqual([host, 403, '']);
        expect(response.headers).toContain('content-length: 0');
      }
      const missing = await rawRequest([`GET ${path} HTTP/1.1`]);
      expect([missing.status, missing.body]).toEqual([403, '']);
      const old = await rawRequest([`GET ${path} HTTP/1.0`]);
      expect([old.status, old.body]).toEqual([403, '']);
    }
  });

  it('serves 127.0.0.1:<port> and localhost:<port>', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      const page = await rawRequest(['GET / HTTP/1.1', `Host: ${host}`]);
      expect([host, page.status]).toEqual([host, 200]);
      expect(page.body).toContain('<title>ctxkit inspector</title>');
      const report = await rawRequest([
        `GET /api/conversation?id=${CONVERSATION} HTTP/1.1`,
        `Host: ${host}`,
      ]);
      expect(report.status).toBe(200);
    }
  });
});

describe('ctxkit view: headers that keep the page to itself', () => {
  it('sends a strict CSP that allows exactly the inline script and style of the page', async () => {
    const response = await fetch(view.url);
    const html = await response.text();
    const policy = policyOf(response.headers.get('content-security-policy') ?? '');
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
      (match) => match[1] ?? '',
    );
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '');
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(policy.get('script-src')).toEqual(scripts.map(hashOf));
    expect(policy.get('style-src')).toEqual(styles.map(hashOf));
    expect(response.headers.get('content-security-policy')).not.toContain('unsafe-inline');
  });

  it('forbids framing, sniffing, the referrer and reads from other sites, on every response', async () => {
    for (const path of [
      '',
      'api/conversations',
      `api/conversation?id=${CONVERSATION}`,
      'nowhere',
    ]) {
      const response = await fetch(`${view.url}${path}`);
      expect([path, response.headers.get('x-frame-options')]).toEqual([path, 'DENY']);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(
        policyOf(response.headers.get('content-security-policy') ?? '').get('frame-ancestors'),
      ).toEqual(["'none'"]);
    }
  });

  it('--html carries the policy as a meta tag: its own script and style, no requests', () => {
    const html = join(mkdtempSync(join(tmpdir(), 'ctxkit-inspector-csp-')), 'page.html');
    expect(runCtxkit(['view', file, '--html', html]).status).toBe(0);
    const page = readFileSync(html, 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page);
    expect(meta).not.toBeNull();
    expect(page.indexOf(meta?.[0] ?? '')).toBeLessThan(page.indexOf('<style>'));
    const policy = policyOf(meta?.[1] ?? '');
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.has('connect-src')).toBe(false);
    const script = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? '';
    expect(policy.get('script-src')).toEqual([hashOf(script)]);
    expect(policy.get('style-src')).toEqual([hashOf(style)]);
  });
});

describe('ctxkit view on port 80', () => {
  // Only root may listen on port 80 here.
  it.skipIf(process.getuid?.() !== 0)(
    'serves the Host a browser sends for it, without the port',
    async () => {
      const database = await openInspectedDatabase(file);
      const viewer = await startViewer(database, { port: 80 });
      try {
        expect(viewer.url).toBe('http://127.0.0.1:80/');
        for (const host of ['127.0.0.1', 'localhost', '127.0.0.1:80', 'localhost:80']) {
          const page = await rawRequest(['GET / HTTP/1.1', `Host: ${host}`], 80);
          expect([host, page.status]).toEqual([host, 200]);
        }
        // What a browser sends for the URL ctxkit view prints.
        expect((await fetch(viewer.url)).status).toBe(200);
        const forged = await rawRequest(['GET / HTTP/1.1', 'Host: evil.example'], 80);
        expect(forged.status).toBe(403);
      } finally {
        await viewer.close();
        await database.close();
      }
    },
  );
});
