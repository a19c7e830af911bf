import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real PostgreSQL server that can lose a connection at the worst
 * moment: once armed, it passes the next `commit` on to the server, waits for the server's
 * answer (the transaction is then committed) and, instead of passing it back, closes the
 * client's connection. The client sees "Connection terminated unexpectedly" for a COMMIT that
 * took effect, as when a network drops between the two.
 */
export interface CommitCuttingProxy {
  /** Connection string through the proxy. */
  readonly url: string;
  /**
   * Cuts the connection of the next `commit`, after the server has answered it; with `thenRefuse`,
   * from then on also closes every new connection at once (as if the server were unreachable)
   * until {@link CommitCuttingProxy.heal}.
   */
  cutNextCommit(options?: { thenRefuse?: boolean }): void;
  /** Lets new connections through again. */
  heal(): void;
  /** How many commits it has cut so far. */
  readonly cuts: number;
  /** How many connections it has refused so far. */
  readonly refused: number;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/**
 * Starts a {@link CommitCuttingProxy} on a free loopback port in front of `serverUrl`.
 *
 * @param serverUrl - a `postgres://user@host:port/database` connection string
 * @returns the proxy, listening
 */
export async function startCommitCuttingProxy(serverUrl: string): Promise<CommitCuttingProxy> {
  const target = new URL(serverUrl);
  const sockets = new Set<Socket>();
  let armed = false;
  let refuseAfterCut = false;
  let refusing = false;
  let cuts = 0;
  let refused = 0;
  const server: Server = createServer((client) => {
    if (refusing) {
      refused++;
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    let cutting = false;
    client.on('data', (chunk: Buffer) => {
      // A simple-protocol query message: 'Q', its length, the SQL text and a zero byte.
      if (armed && chunk[0] === 0x51 && chunk.includes('commit\0')) {
        armed = false;
        cutting = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!cutting) {
        client.write(chunk);
        return;
      }
      cuts++;
      refusing = refuseAfterCut;
      client.destroy();
      upstream.destroy();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the proxy has no port');
  const url = new URL(serverUrl);
  url.port = String(address.port);
  return {
    url: url.toString(),
    cutNextCommit(options = {}) {
      armed = true;
      refuseAfterCut = options.thenRefuse === true;
    },
    heal() {
      refusing = false;
    },
    get cuts() {
      return cuts;
    },
    get refused() {
      return refused;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
