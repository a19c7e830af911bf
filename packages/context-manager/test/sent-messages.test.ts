import { type Message, recordOrigin, withContent } from '@ctxkit/context-core';
import { kitCounter } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import { fitLeftSomethingOut, sentMessages } from '../src/history-reach.js';

const user = (text: string): Message => ({ role: 'user', content: text });
const assistant = (text: string): Message => ({ role: 'assistant', content: text });

describe('sentMessages', () => {
  it('counts a message sent as it is or as a copy of a copy as sent, and a summarized or dropped one as not', () => {
    const history = [user('first'), assistant('old'), user('folded'), assistant('long answer')];
    const summary: Message = { role: 'user', content: 'summary', meta: { kind: 'summary' } };
    recordOrigin(summary, [history[1] as Message, history[2] as Message], 'summarized');
    const cut = withContent(history[3] as Message, 'long', kitCounter);
    const cutAgain = withContent(cut, 'lo', kitCounter, 'masked');
    expect(sentMessages(history, [history[0] as Message, summary, cutAgain])).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect(sentMessages(history, [cutAgain])).toEqual([false, false, false, true]);
  });

  it('lets fitLeftSomethingOut ignore the first user message and summaries', () => {
    const summary: Message = { role: 'user', content: 'summary', meta: { kind: 'summary' } };
    const history = [user('first'), summary, assistant('a'), user('b')];
    expect(fitLeftSomethingOut(history, [false, false, true, true])).toBe(false);
    expect(fitLeftSomethingOut(history, [true, true, false, true])).toBe(true);
  });
});
