import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { describe, it } from 'vitest';
import {
  createStandardAssembler,
  repairToolPairs,
  toAnthropic,
  toOpenAIChat,
} from '../src/index.js';

const messages = [{ role: 'user' as const, content: 'hi' }];

/** Each public function of the package that takes options, given one misspelt key. */
const misspelt: [string, () => unknown, string, string][] = [
  [
    'createStandardAssembler',
    () => createStandardAssembler({ orphan: 'drop' } as never),
    'orphan',
    'orphans',
  ],
  [
    'repairToolPairs',
    () => repairToolPairs(messages, { orphan: 'drop' } as never),
    'orphan',
    'orphans',
  ],
  [
    'toAnthropic',
    () => toAnthropic(messages, { cacheBreakpoint: true } as never),
    'cacheBreakpoint',
    'cacheBreakpoints',
  ],
  [
    'toAnthropic (cacheBreakpoints)',
    () => toAnthropic(messages, { cacheBreakpoints: { tll: '1h' } } as never),
    'cacheBreakpoints.tll',
    'cacheBreakpoints.ttl',
  ],
  [
    'toOpenAIChat',
    () => toOpenAIChat(messages, { systemrole: 'developer' } as never),
    'systemrole',
    'systemRole',
  ],
];

describe('options objects of assembler-standard', () => {
  it.each(misspelt)(
    '%s refuses a misspelt key, naming the closest known one',
    async (_, run, key, suggestion) => {
      await unknownOptionRefused(run, key, suggestion);
    },
  );
});
