import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type OptionKeys, optionChecker } from '@ctxkit/context-core';
import { readConversationReport } from './conversation-report.js';
import { listConversations } from './conversation-summary.js';
import { InspectorError } from './inspector-error.js';
import { SOURCE } from './inspector-source.js';
import type { InspectedDatabase } from './open-inspected-database.js';
import { renderViewerPage, VIEWER_PAGE_POLICY } from './viewer-page.js';

/** Options of {@link startViewer}. */
export interface ViewerOptions {
  /**
   * The port to listen on, on 127.0.0.1; 0 picks a free one.
   *
   * @default 0
   */
  port?: number;
}

/** A running viewer. */
export interface Viewer {
  /** Where it is served, such as `http://127.0.0.1:4873/`. */
  readonly url: string;
  /** Stops serving (the database stays open: close it yourself). */
  close(): Promise<void>;
}

/**
 * Serves the viewer page for one database on 127.0.0.1 only, read-only: `GET /` is the page,
 * `GET /api/conversations` the conversations, `GET /api/conversation?id=…` one conversation's
 * report, read afresh on every request. Anything else gets 404, any method but GET and HEAD 405;
 * a stored row that is not what ctxkit writes gets 422 and the one-line error as JSON.
 *
 * A request whose `Host` is not `127.0.0.1:<port>` or `localhost:<port>` (on port 80, also without
 * the port, as browsers send it) gets 403 and no content: a page of another site whose name was
 * rebound to 127.0.0.1, or no `Host` at all. Every
 * response forbids framing (`X-Frame-Options: DENY`, `frame-ancestors 'none'`), sniffing, the
 * referrer and other sites' reads (`Cross-Origin-Resource-Policy: same-origin`); the page's
 * Content-Security-Policy allows its own inline script and style (by hash) and requests to its
 * own server, nothing else.
 *
 * @param database - a database opened with `openInspectedDatabase`
 * @param options - the port
 * @returns the running viewer, once it listens
 * @throws InspectorError `invalid_argument` for a port that is not an integer from 0 to 65535,
 *   or one that is in use or not allowed
 */
export async function startViewer(
  database: InspectedDatabase,
  options: ViewerOptions = {},
): Promise<Viewer> {
  optionChecker(SOURCE, 'startViewer').knownKeys(options, OPTION_KEYS);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InspectorError({
      code: 'invalid_argument',
      message: `The port must be an integer from 0 to 65535, got ${port}.`,
      details: { port },
    });
  }
  const page = renderViewerPage();
  let hosts: readonly string[] = [];
  // Node answers a request without Host itself (400) unless told not to: this handler refuses it.
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, {
        ...SECURITY_HEADERS,
        'content-type': `${type}; charset=utf-8`,
        'content-security-policy':
          type === 'text/html' && status === 200 ? VIEWER_PAGE_POLICY.served : NOTHING_POLICY,
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (!hosts.includes(request.headers.host?.toLowerCase() ?? '')) {
      response.writeHead(403, {
        ...SECURITY_HEADERS,
        'content-security-policy': NOTHING_POLICY,
        'content-length': '0',
      });
      response.end();
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(405, 'text/plain', 'read-only: GET only\n');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const json = (read: () => Promise<unknown>) =>
      read().then(
        (value) => send(200, 'application/json', JSON.stringify(value)),
        (error: unknown) =>
          send(
            InspectorError.isInstance(error, 'not_found')
              ? 404
              : InspectorError.isInstance(error, 'corrupt_event') ||
                  InspectorError.isInstance(error, 'corrupt_message')
                ? 422
                : 500,
            'application/json',
            JSON.stringify({ error: error instanceof Error ? error.message : String(error) }),
          ),
      );
    if (url.pathname === '/') send(200, 'text/html', page);
    else if (url.pathname === '/api/conversations') {
      void json(async () => ({
        target: database.target,
        conversations: await listConversations(database),
      }));
    } else if (url.pathname === '/api/conversation') {
      void json(() => readConversationReport(database, url.searchParams.get('id') ?? ''));
    } else send(404, 'text/plain', 'not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES'
          ? new InspectorError({
              code: 'invalid_argument',
              message: `Cannot listen on 127.0.0.1:${port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : 'permission denied'} (--port 0 picks a free one).`,
              details: { port },
              cause: error,
            })
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  hosts = [`127.0.0.1:${address.port}`, `localhost:${address.port}`];
  // A browser leaves HTTP's default port out of Host (`http://127.0.0.1:80/` sends `127.0.0.1`).
  if (address.port === 80) hosts = [...hosts, '127.0.0.1', 'localhost'];
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// --- internal helpers ---

/** Sent with every response. */
const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
} as const;

/** The policy of every response but the page: nothing runs, nothing loads, nothing frames it. */
const NOTHING_POLICY =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const OPTION_KEYS = Object.freeze({
  port: true,
} satisfies OptionKeys<ViewerOptions>);
