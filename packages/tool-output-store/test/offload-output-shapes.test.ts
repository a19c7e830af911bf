import {
  countMessageTokens,
  createInMemoryToolOutputStore,
  type Message,
  type ToolResultOutput,
  type ToolResultPart,
  toolResultsOf,
} from '@ctxkit/context-core';
import { deepFreeze, sampleText } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { describe, expect, it } from 'vitest';
import { executeGetToolOutput, offloadToolOutputs, parseOffloadHeader } from '../src/index.js';
import { createContentAddressedStore } from './helpers.js';

const counter = createHeuristicCounter();
const context = { counter, conversationId: 'c1' };

function toolMessage(output: ToolResultOutput, toolName: string): Message {
  return {
    id: 'm1',
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'call_1', toolName, output }],
  };
}

function resultOf(message: Message): ToolResultPart {
  return toolResultsOf(message)[0] as ToolResultPart;
}

const containers = Array.from({ length: 60 }, (_, index) => ({
  id: index,
  name: `service-${index}`,
  status: index === 42 ? 'restarting' : 'running',
  ports: [8000 + index],
}));

describe('offloading each shape of tool output', () => {
  it('stores a string whole and leaves the placeholder in its place', async () => {
    const store = createInMemoryToolOutputStore();
    const output = sampleText('log', 6_000, 1);
    const { message, offloaded } = await offloadToolOutputs({ store }).offloadMessage(
      toolMessage(output, 'get_logs'),
      context,
    );
    const placeholder = resultOf(message).output as string;
    const header = parseOffloadHeader(placeholder);
    expect(header).toMatchObject({ toolName: 'get_logs', ref: offloaded[0]?.ref, chars: 6_000 });
    const stored = await store.get('c1', header?.ref as string);
    expect(stored).toMatchObject({ text: output, meta: { toolName: 'get_logs' } });
    expect(stored.meta.outputType).toBeUndefined();
  });

  it('stores a JSON output as its indented JSON text, and leaves a string placeholder', async () => {
    const store = createInMemoryToolOutputStore();
    const original = toolMessage({ type: 'json', value: containers }, 'list_containers');
    const { message, offloaded } = await offloadToolOutputs({ store }).offloadMessage(
      deepFreeze(original),
      context,
    );
    const placeholder = resultOf(message).output;
    expect(typeof placeholder).toBe('string');
    const header = parseOffloadHeader(placeholder as string);
    const text = JSON.stringify(containers, null, 2);
    expect(header).toMatchObject({ ref: offloaded[0]?.ref, chars: text.length });
    expect(placeholder).toContain('60 items');
    expect(countMessageTokens(message, counter)).toBeLessThan(
      countMessageTokens(original, counter),
    );
    const stored = await store.get('c1', header?.ref as string);
    expect(stored).toEqual({
      ref: header?.ref,
      text,
      meta: { toolName: 'list_containers', toolCallId: 'call_1', outputType: 'json' },
    });
    // What the model reads back: one field by JSON path, one line by grep.
    const field = await executeGetToolOutput(store, 'c1', {
      ref: header?.ref,
      json_path: '$[42].status',
    });
    expect(field.split('\n').slice(1).join('\n')).toBe('"restarting"');
    const line = await executeGetToolOutput(store, 'c1', { ref: header?.ref, grep: 'restarting' });
    expect(line.split('\n').slice(1)).toEqual(['    "status": "restarting",']);
  });

  it('stores the text of a content output and keeps its images and files in place', async () => {
    const store = createInMemoryToolOutputStore();
    const image = {
      type: 'image' as const,
      image: new Uint8Array(1024 * 1024),
      mediaType: 'image/png',
    };
    const file = {
      type: 'file' as const,
      data: 'JVBERi0xLjQK'.repeat(1_000),
      mediaType: 'application/pdf',
      filename: 'report.pdf',
    };
    const first = {
      type: 'text' as const,
      text: sampleText('log', 3_000, 2),
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
    };
    const second = { type: 'text' as const, text: sampleText('prose', 3_000, 3) };
    const original = toolMessage(
      { type: 'content', value: [first, image, second, file] },
      'screenshot_page',
    );
    const offloader = offloadToolOutputs({ store });
    const { message, offloaded } = await offloader.offloadMessage(deepFreeze(original), context);
    const output = resultOf(message).output;
    if (typeof output === 'string' || output.type !== 'content') throw new Error('not content');
    expect(output.value).toHaveLength(3);
    const [placeholder, keptImage, keptFile] = output.value;
    expect(keptImage).toBe(image);
    expect(keptFile).toBe(file);
    expect(placeholder).toMatchObject({ type: 'text', providerOptions: first.providerOptions });
    const header = parseOffloadHeader((placeholder as { text: string }).text);
    const text = `${first.text}\n${second.text}`;
    expect(header).toMatchObject({ ref: offloaded[0]?.ref, chars: text.length });
    expect(await store.get('c1', header?.ref as string)).toMatchObject({
      text,
      meta: { toolName: 'screenshot_page', outputType: 'content' },
    });
    const readBack = await executeGetToolOutput(store, 'c1', {
      ref: header?.ref,
      max_chars: 20_000,
    });
    expect(readBack.slice(readBack.indexOf('\n') + 1)).toBe(text);
    expect(countMessageTokens(message, counter)).toBeLessThan(
      countMessageTokens(original, counter),
    );
    // Offloading again changes nothing.
    const again = await offloader.offloadMessage(message, context);
    expect(again.message).toBe(message);
    expect(again.offloaded).toEqual([]);
  });

  it('leaves a content output alone when its text is short, however large its images', async () => {
    const store = createContentAddressedStore();
    const image = {
      type: 'image' as const,
      image: new Uint8Array(1024 * 1024),
      mediaType: 'image/png',
    };
    for (const value of [[image], [{ type: 'text' as const, text: 'one screenshot' }, image]]) {
      const original = toolMessage({ type: 'content', value }, 'screenshot_page');
      const { message, offloaded } = await offloadToolOutputs({ store }).offloadMessage(
        original,
        context,
      );
      expect(message).toBe(original);
      expect(offloaded).toEqual([]);
    }
    expect(store.puts).toBe(0);
  });
});
