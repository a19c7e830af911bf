import { ContextError } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { isConnectionLost } from '../src/connection-lost.js';

/** An error shaped like node-postgres's: a message and, from the server, a SQLSTATE `code`. */
function databaseError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

describe('isConnectionLost', () => {
  it('recognizes a dropped or refused connection, by SQLSTATE, socket code or node-postgres message', () => {
    const lost = [
      databaseError('terminating connection due to administrator command', '57P01'),
      databaseError('the database system is shutting down', '57P03'),
      databaseError('connection failure', '08006'),
      databaseError('read ECONNRESET', 'ECONNRESET'),
      databaseError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      databaseError('Connection terminated unexpectedly'),
      databaseError('Client was closed and is not queryable'),
      databaseError('timeout exceeded when trying to connect'),
    ];
    for (const error of lost) expect(isConnectionLost(error), error.message).toBe(true);
  });

  it('looks through the cause chain, as provider-sqlite wraps database errors', () => {
    const wrapped = new ContextError({
      code: 'storage_failed',
      source: 'provider-sqlite',
      message: 'append failed',
      cause: databaseError('terminating connection due to administrator command', '57P01'),
    });
    expect(isConnectionLost(wrapped)).toBe(true);
  });

  it('leaves every other error to fail the task', () => {
    const cyclic = new Error('cycle');
    Object.assign(cyclic, { cause: cyclic });
    const other = [
      databaseError('duplicate key value violates unique constraint', '23505'),
      databaseError('canceling statement due to statement timeout', '57014'),
      new ContextError({ code: 'tool_rounds_exceeded', source: 'example-worker', message: 'x' }),
      cyclic,
      'Connection terminated',
      undefined,
    ];
    for (const error of other) expect(isConnectionLost(error)).toBe(false);
  });
});
