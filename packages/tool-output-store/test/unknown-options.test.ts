import { createInMemoryToolOutputStore } from '@ctxkit/context-core';
import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { describe, it } from 'vitest';
import {
  createSummarizerRegistry,
  offloadToolOutputs,
  summarizeHeadTail,
  summarizeInspect,
  summarizeList,
  summarizeLogs,
} from '../src/index.js';

/** Each factory of the package, given one misspelt key. */
const misspelt: [string, () => unknown, string, string][] = [
  [
    'offloadToolOutputs',
    () => offloadToolOutputs({ store: createInMemoryToolOutputStore(), minChar: 5 } as never),
    'minChar',
    'minChars',
  ],
  [
    'createSummarizerRegistry',
    () => createSummarizerRegistry({ builtins: false } as never),
    'builtins',
    'builtIns',
  ],
  ['summarizeHeadTail', () => summarizeHeadTail({ headLine: 2 } as never), 'headLine', 'headLines'],
  ['summarizeInspect', () => summarizeInspect({ field: [] } as never), 'field', 'fields'],
  ['summarizeList', () => summarizeList({ row: 2 } as never), 'row', 'rows'],
  ['summarizeLogs', () => summarizeLogs({ line: 2 } as never), 'line', 'lines'],
];

describe('options objects of tool-output-store', () => {
  it.each(misspelt)(
    '%s refuses a misspelt key, naming the closest known one',
    async (_, run, key, suggestion) => {
      await unknownOptionRefused(run, key, suggestion);
    },
  );
});
