import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { describe, it } from 'vitest';
import {
  cacheAware,
  contextGuard,
  createSimpleCompressor,
  maskOldToolResults,
  slidingWindow,
  stripOldThinking,
  threeLayer,
  trimToBudget,
  truncateMessages,
  truncateToolResults,
} from '../src/index.js';

/** Each factory of the package, given one misspelt key. */
const misspelt: [string, () => unknown, string, string][] = [
  ['cacheAware', () => cacheAware({ triger: 0.8 } as never), 'triger', 'trigger'],
  ['contextGuard', () => contextGuard({ trimm: {} } as never), 'trimm', 'trim'],
  [
    'contextGuard (toolResults)',
    () => contextGuard({ toolResults: { headChar: 5 } as never }),
    'headChar',
    'headChars',
  ],
  [
    'createSimpleCompressor',
    () => createSimpleCompressor({ maxCharPerMessage: 5 } as never),
    'maxCharPerMessage',
    'maxCharsPerMessage',
  ],
  [
    'maskOldToolResults',
    () => maskOldToolResults({ keepRecentResult: 2 } as never),
    'keepRecentResult',
    'keepRecentResults',
  ],
  ['slidingWindow', () => slidingWindow({ raito: 0.5 } as never), 'raito', 'ratio'],
  [
    'stripOldThinking',
    () => stripOldThinking({ keepRecentThinkings: 2 } as never),
    'keepRecentThinkings',
    'keepRecentThinking',
  ],
  ['threeLayer', () => threeLayer({ windows: {} } as never), 'windows', 'window'],
  [
    'trimToBudget',
    () => trimToBudget({ keepFirstuser: true } as never),
    'keepFirstuser',
    'keepFirstUser',
  ],
  ['truncateMessages', () => truncateMessages({ markr: () => '' } as never), 'markr', 'marker'],
  [
    'truncateToolResults',
    () => truncateToolResults({ maxOutputChar: 5 } as never),
    'maxOutputChar',
    'maxOutputChars',
  ],
];

describe('options objects of compressor-simple', () => {
  it.each(misspelt)(
    '%s refuses a misspelt key, naming the closest known one',
    async (_, run, key, suggestion) => {
      await unknownOptionRefused(run, key, suggestion);
    },
  );
});
