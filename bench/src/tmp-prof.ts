import { countTokens } from '@ctxkit/context-core';
import { contextGuard } from '@ctxkit/compressor-simple';
import { createTiktokenCounter } from '@ctxkit/token-counters';
import { agentHistory } from './history-counting.js';
const counter = createTiktokenCounter('o200k_base');
const history = agentHistory(4000, { user: 200, reply: 150, output: 600, answer: 250 });
async function main() {
  const g = contextGuard();
  const r = await g.compress(history, { maxTokens: 119808 }, { counter });
  const out = r.messages;
  let s = performance.now();
  for (let i = 0; i < 200; i++) countTokens(out, counter);
  console.log('count output', out.length, ((performance.now() - s) / 200).toFixed(3));
  s = performance.now();
  for (let i = 0; i < 100; i++) await g.compress(history, { maxTokens: 119808 }, { counter });
  console.log('guard', ((performance.now() - s) / 100).toFixed(3));
}
main();
