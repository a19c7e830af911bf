import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createInMemoryToolOutputStore,
  type Message,
  type ToolOutputStore,
} from '@ctxkit/context-core';
import { createKyselyToolOutputStore, createSqliteProvider } from '@ctxkit/provider-sqlite';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { executeGetToolOutput, offloadToolOutputs } from '@ctxkit/tool-output-store';
import { benchGrepEngines } from './grep-engines.js';
import { measure, printTable } from './measure.js';

/** Tool messages offloaded per measured run. */
const BATCH = 100;

/**
 * What offloading costs at write time: a batch of 100 tool messages, each one 24 KB log output
 * (about 200 lines), summarized and stored in memory and in a SQLite file, against the bare
 * `put` of the same outputs into the same SQLite store (the part that is storage, not offloading).
 * Then one `get_tool_output` call (a grep over a stored log) from each store, and grep itself on
 * each engine (`benchGrepEngines`).
 */
export async function benchToolOutputStore(): Promise<void> {
  const counter = createHeuristicCounter();
  const folder = mkdtempSync(join(tmpdir(), 'ctxkit-bench-offload-'));
  const provider = createSqliteProvider({ filename: join(folder, 'offload.db'), counter });
  try {
    const outputs = Array.from({ length: BATCH }, (_, index) => logOutput(index));
    const megabytes = outputs.reduce((sum, output) => sum + output.length, 0) / 1e6;
    const stores: [string, ToolOutputStore][] = [
      ['in memory', createInMemoryToolOutputStore()],
      ['SQLite file', createKyselyToolOutputStore({ db: provider.db })],
    ];
    const rows: Record<string, string | number>[] = [];
    let run = 0;
    for (const [label, store] of stores) {
      const offloader = offloadToolOutputs({ store });
      const offload = await measure(async () => {
        run += 1;
        for (const [index, output] of outputs.entries()) {
          await offloader.offloadMessage(toolMessage(`call_${run}_${index}`, output), {
            counter,
            conversationId: 'bench',
          });
        }
      });
      const putOnly = await measure(async () => {
        for (const output of outputs) {
          await store.put('bench', output, { toolName: 'get_container_logs' });
        }
      });
      const ref = await store.put('bench', outputs[0] as string, {
        toolName: 'get_container_logs',
      });
      const grep = await measure(() =>
        executeGetToolOutput(store, 'bench', { ref, grep: 'ERROR|FATAL', start_line: 150 }),
      );
      rows.push({
        store: label,
        'offload 100 outputs (ms)': offload.median.toFixed(1),
        'offload (MB/s)': (megabytes / (offload.median / 1000)).toFixed(1),
        'put only (ms)': putOnly.median.toFixed(1),
        'offload / put': (offload.median / putOnly.median).toFixed(2),
        'get_tool_output grep (ms)': grep.median.toFixed(3),
      });
    }
    printTable(
      `tool-output-store: offloading ${BATCH} tool outputs of ~24 KB (${megabytes.toFixed(1)} MB), heuristic counter`,
      rows,
    );
    await benchGrepEngines(outputs);
  } finally {
    await provider.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

// --- internal helpers ---

function toolMessage(toolCallId: string, output: string): Message {
  return {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId, toolName: 'get_container_logs', output }],
  };
}

/** About 24 KB of JSON log lines, different for each `seed`. */
function logOutput(seed: number): string {
  const lines: string[] = [];
  for (let line = 0; line < 200; line += 1) {
    const level =
      (line * 7 + seed) % 23 === 0 ? 'error' : (line + seed) % 9 === 0 ? 'warn' : 'info';
    lines.push(
      JSON.stringify({
        level,
        time: new Date(Date.UTC(2026, 10, 22, 9, 0, line)).toISOString(),
        msg: level === 'error' ? 'upstream timed out' : 'request served',
        requestId: `req_${seed}_${line}`,
        durationMs: (line * 37 + seed * 11) % 900,
      }),
    );
  }
  return lines.join('\n');
}
