#!/usr/bin/env -S tsx --conditions=@ctxkit/source
/**
 * The worker's command line:
 *   cli enqueue <conversation> <message...>   add a task
 *   cli run [--watch]                         process tasks until the queue is empty (or forever)
 *   cli inspect <conversation> [--page-size n] [--archives-after cursor] [--events-after cursor]
 *                                             history, a page of archives and of events, and tasks
 * Configuration comes from the environment (docs/run-the-worker.md has the table).
 */
import { parseArgs } from 'node:util';
import { ContextError } from '@ctxkit/context-core';
import { databaseLabel, loadConfig, SCRIPTED_MODEL } from './config.js';
import { createComponents } from './create-components.js';
import { inspectConversation } from './inspect-conversation.js';
import { runWorker } from './worker.js';

const USAGE = `Usage:
  cli enqueue <conversation> <message...>   add a task to the queue
  cli run [--watch]                         process tasks until the queue is empty (--watch: keep polling)
  cli inspect <conversation>                show history, archives, events and tasks; archives and
    [--page-size <n>]                       events a page at a time (20 unless --page-size says);
    [--archives-after <cursor>]             the report prints the cursor of the next page of each
    [--events-after <cursor>]

Settings come from the environment: CTX_DB or CTXKIT_DATABASE_URL, MAX_CONTEXT_TOKENS, MAX_CHARS_PER_MESSAGE, CTX_COMPRESSOR,
CTX_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY, ... (see docs/run-the-worker.md).`;

process.exitCode = await main(process.argv.slice(2));

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (command === undefined || command === 'help' || parsed.values.help) {
    console.log(USAGE);
    return command === undefined && !parsed.values.help ? 2 : 0;
  }
  if (!['enqueue', 'run', 'inspect'].includes(command)) {
    console.error(`Unknown command ${JSON.stringify(command)}.\n\n${USAGE}`);
    return 2;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    console.error(ContextError.isInstance(error) ? error.message : String(error));
    return 2;
  }
  const components = createComponents(config);
  try {
    switch (command) {
      case 'enqueue': {
        const [conversationId, ...words] = rest;
        if (conversationId === undefined || words.length === 0) {
          console.error(`enqueue needs a conversation and a message.\n\n${USAGE}`);
          return 2;
        }
        const task = await components.queue.enqueue(conversationId, words.join(' '));
        console.log(`Enqueued task ${task.id} in conversation ${conversationId}.`);
        return 0;
      }
      case 'inspect': {
        const [conversationId] = rest;
        if (conversationId === undefined) {
          console.error(`inspect needs a conversation.\n\n${USAGE}`);
          return 2;
        }
        const { 'page-size': pageSize } = parsed.values;
        console.log(
          await inspectConversation(components, conversationId, {
            pageSize: pageSize === undefined ? undefined : Number(pageSize),
            archivesAfter: parsed.values['archives-after'],
            eventsAfter: parsed.values['events-after'],
          }),
        );
        return 0;
      }
      default:
        return await run(components, Boolean(parsed.values.watch));
    }
  } catch (error) {
    console.error(
      ContextError.isInstance(error) ? error.message : ((error as Error).stack ?? String(error)),
    );
    return 1;
  } finally {
    await components.close();
  }
}

async function run(
  components: ReturnType<typeof createComponents>,
  watch: boolean,
): Promise<number> {
  const { config, logger, model } = components;
  const stop = new AbortController();
  const onSignal = (name: string) => () => {
    if (stop.signal.aborted) process.exit(130);
    logger.info(`${name}: stopping after releasing the current task (press again to quit at once)`);
    stop.abort();
  };
  process.on('SIGINT', onSignal('SIGINT'));
  process.on('SIGTERM', onSignal('SIGTERM'));
  logger.info(
    `worker started: model ${model.name}${
      model.name === SCRIPTED_MODEL
        ? ' (offline scripted model, no network)'
        : ` at ${config.openaiBaseUrl}`
    }, compressor ${config.compressor}, counter ${components.counter.name}, ` +
      `MAX_CONTEXT_TOKENS=${config.maxContextTokens}, database ${databaseLabel(config)}${watch ? ', watching' : ''}`,
  );
  const summary = await runWorker({
    queue: components.queue,
    components,
    settings: config,
    watch,
    signal: stop.signal,
  });
  logger.info(
    `worker stopped: ${summary.claimed} tasks claimed, ${summary.done} done, ${summary.failed} failed`,
  );
  return 0;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      watch: { type: 'boolean', short: 'w' },
      help: { type: 'boolean', short: 'h' },
      'page-size': { type: 'string' },
      'archives-after': { type: 'string' },
      'events-after': { type: 'string' },
    },
  });
}
