import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer of the server: an HTTP status and the body, sent as JSON. */
export interface ServerAnswer {
  status: number;
  /** Sent as it is when a string, as JSON otherwise. */
  body: unknown;
}

/** A scenario of the server: its URL, and the request bodies it received, parsed. */
export interface Scenario {
  url: string;
  received: unknown[];
}

/** A local HTTP model server whose answers each test scripts. */
export interface ModelServer {
  /**
   * A new scenario at its own path: the n-th request gets `answers[n]`, requests past the end
   * get the last answer.
   */
  scenario(answers: readonly ServerAnswer[]): Scenario;
  close(): Promise<void>;
}

/** Starts the server on a free port of 127.0.0.1. */
export async function startModelServer(): Promise<ModelServer> {
  const scenarios = new Map<string, { answers: readonly ServerAnswer[]; received: unknown[] }>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const scenario = scenarios.get(request.url ?? '');
      if (scenario === undefined || request.method !== 'POST') {
        response.writeHead(404).end();
        return;
      }
      scenario.received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const { answers } = scenario;
      const answer = answers[Math.min(scenario.received.length, answers.length) - 1];
      if (answer === undefined) throw new Error('a scenario needs at least one answer');
      const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let next = 0;
  return {
    scenario(answers) {
      next += 1;
      const path = `/scenario/${next}/chat`;
      const received: unknown[] = [];
      scenarios.set(path, { answers, received });
      return { url: `http://127.0.0.1:${port}${path}`, received };
    },
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}
