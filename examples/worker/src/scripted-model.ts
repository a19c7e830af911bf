import { createHash } from 'node:crypto';
import {
  type Message,
  messageText,
  type Part,
  type ToolCallPart,
  type ToolResultPart,
  toolCallsOf,
  toolOutputText,
  toolResultsOf,
} from '@ctxkit/context-core';
import { GET_TOOL_OUTPUT } from '@ctxkit/tool-output-store';
import type { ChatModel, ChatRequest, ChatResponse } from './chat-model.js';
import {
  detailCalls,
  inputOf,
  LOG_ERROR_PATTERN,
  NOTABLE_LINE_PATTERN,
  type OffloadedView,
  offloadedViews,
} from './scripted-details.js';

/**
 * A deterministic offline model that plays an operations agent, for the demo and the tests.
 *
 * It reads the prompt the way a model would: the newest user message is the question, the tool
 * results after it are what it has found so far. A question naming a file gets `list_files` on its
 * directory, then `read_file`; one naming containers gets `inspect_container` and
 * `get_container_logs` for each, in parallel; a question about the fleet gets `list_containers`;
 * a request for a summary is answered from the earlier answers still in the prompt. When an output
 * reaches it offloaded (a summary under a `ref=toolout_…` header) and it needs a detail
 * the summary leaves out, it calls `get_tool_output`: a grep of a log for its latest errors, the
 * environment of a crashed container by JSON path, the unhealthy rows of a list, the notable lines
 * of a file. Once its tools have answered, it replies with facts taken from the outputs it can
 * see, and says so when an output reached it cut short. Same prompt, same answer; tool-call ids
 * derive from the prompt.
 */
export function createScriptedModel(): ChatModel {
  return Object.freeze({
    name: 'scripted',
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const { messages } = request;
      const questionIndex = messages.findLastIndex((message) => message.role === 'user');
      const question = questionIndex === -1 ? '' : messageText(messages[questionIndex] as Message);
      const turn = messages.slice(questionIndex + 1);
      const results = turn
        .flatMap(toolResultsOf)
        .filter((result) => result.toolName !== GET_TOOL_OUTPUT);
      const calls = new Map(turn.flatMap(toolCallsOf).map((call) => [call.toolCallId, call]));
      const views = offloadedViews(turn);
      const steps = turn.filter(
        (message) => message.role === 'assistant' && toolCallsOf(message).length > 0,
      ).length;
      const available = new Set(
        request.toolChoice === 'none' ? [] : request.tools.map((tool) => tool.name),
      );
      const details = available.has(GET_TOOL_OUTPUT) ? detailCalls(results, views, calls) : [];
      const plan: Plan =
        details.length > 0
          ? {
              thought:
                'Some outputs were stored out of the conversation; fetch the details their summaries leave out.',
              calls: details.map((input) => ({ toolName: GET_TOOL_OUTPUT, input })),
            }
          : planStep(question, steps, results, available);
      if (plan.calls.length > 0) {
        const prompt = JSON.stringify(messages.map((message) => [message.role, message.content]));
        const prefix = createHash('sha256').update(prompt).digest('hex').slice(0, 12);
        const content: Part[] = [
          { type: 'thinking', text: plan.thought },
          ...plan.calls.map(
            (call, index): ToolCallPart => ({
              type: 'tool-call',
              toolCallId: `call_${prefix}_${index}`,
              toolName: call.toolName,
              input: call.input,
            }),
          ),
        ];
        return { message: { role: 'assistant', content } };
      }
      return {
        message: {
          role: 'assistant',
          content: answer(question, results, calls, views, messages.slice(0, questionIndex)),
        },
      };
    },
  });
}

// --- internal helpers ---

interface PlannedCall {
  toolName: string;
  input: Record<string, unknown>;
}

interface Plan {
  thought: string;
  calls: PlannedCall[];
}

const FILE_PATTERN =
  /\b((?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:conf|ya?ml|md|sh|csv|env|example|json|txt|log))\b/g;
const NAME_PATTERN = /\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b/g;
const FLEET_PATTERN =
  /\b(containers|fleet|services|all of them|everything running|not healthy|unhealthy ones)\b/i;
const SUMMARY_PATTERN = /\b(summar\w*|recap|status report|wrap up)\b/i;

function planStep(
  question: string,
  step: number,
  results: ToolResultPart[],
  available: Set<string>,
): Plan {
  const files = [...question.matchAll(FILE_PATTERN)].map((match) => match[1] as string);
  const names = containerNames(question, files);
  const none: Plan = { thought: '', calls: [] };
  if (SUMMARY_PATTERN.test(question) && files.length === 0 && names.length === 0) return none;
  if (files.length > 0) {
    const file = files[0] as string;
    const directory = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
    if (step === 0 && available.has('list_files')) {
      return {
        thought: `The question is about ${file}. First see what is in ${directory}.`,
        calls: [{ toolName: 'list_files', input: { path: directory } }],
      };
    }
    if (
      step <= 1 &&
      !results.some((result) => result.toolName === 'read_file') &&
      available.has('read_file')
    ) {
      const calls: PlannedCall[] = [{ toolName: 'read_file', input: { path: file } }];
      for (const name of names.slice(0, 1)) {
        if (available.has('get_container_logs'))
          calls.push({ toolName: 'get_container_logs', input: { name, tail: 50 } });
      }
      return {
        thought: `Read ${file}${names.length > 0 ? ` and the recent logs of ${names[0]}` : ''}.`,
        calls,
      };
    }
    return none;
  }
  if (names.length > 0) {
    if (step > 0) return none;
    const calls: PlannedCall[] = [];
    for (const name of names.slice(0, 2)) {
      if (available.has('inspect_container'))
        calls.push({ toolName: 'inspect_container', input: { name } });
      if (available.has('get_container_logs'))
        calls.push({ toolName: 'get_container_logs', input: { name, tail: 200 } });
    }
    return {
      thought: `Check the state of ${names.slice(0, 2).join(' and ')} and read the recent logs.`,
      calls,
    };
  }
  if (FLEET_PATTERN.test(question) && step === 0 && available.has('list_containers')) {
    return {
      thought: 'List every container, stopped ones included, to see which are not healthy.',
      calls: [{ toolName: 'list_containers', input: { all: true } }],
    };
  }
  return none;
}

/** Hyphenated names in the question that are not part of a file path. */
function containerNames(question: string, files: string[]): string[] {
  let rest = question;
  for (const file of files) rest = rest.replaceAll(file, ' ');
  return [...new Set(rest.match(NAME_PATTERN) ?? [])];
}

function answer(
  question: string,
  results: ToolResultPart[],
  calls: ReadonlyMap<string, ToolCallPart>,
  views: ReadonlyMap<string, OffloadedView>,
  earlier: readonly Message[],
): string {
  if (results.length === 0) {
    if (SUMMARY_PATTERN.test(question)) return summarize(earlier);
    return (
      'I can list containers, inspect them, read their logs, and list or read files in the operations ' +
      'sandbox. Name a container or a file, or ask which containers are unhealthy.'
    );
  }
  const readFiles = results.some((result) => result.toolName === 'read_file');
  const paragraphs = results
    .filter((result) => !(readFiles && result.toolName === 'list_files'))
    .map((result) => {
      const input = textInputOf(calls.get(result.toolCallId));
      const view = views.get(result.toolCallId);
      return view ? describeOffloaded(result, input, view) : describeResult(result, input);
    });
  if (
    results.some((result) => !views.has(result.toolCallId) && wasCut(toolOutputText(result.output)))
  ) {
    paragraphs.push(
      'Part of what the tools returned was cut before it reached me, so counts above cover only what I could see.',
    );
  }
  const diagnosis = diagnose(results.map((result) => visibleText(result, views)));
  if (diagnosis) paragraphs.push(diagnosis);
  return paragraphs.join('\n\n');
}

/** The call's input as an object of strings, for naming what a result is about. */
function textInputOf(call: ToolCallPart | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(inputOf(call)).map(([key, value]) => [key, String(value)]),
  );
}

/** What the model sees of a result: its output, or an offloaded one's summary and fetched details. */
function visibleText(result: ToolResultPart, views: ReadonlyMap<string, OffloadedView>): string {
  const view = views.get(result.toolCallId);
  if (view === undefined) return toolOutputText(result.output);
  return [view.summary, ...view.details.map((detail) => detail.text)].join('\n');
}

/** {@link describeResult} for an output that reached the model as a summary and fetched details. */
function describeOffloaded(
  result: ToolResultPart,
  input: Record<string, string>,
  view: OffloadedView,
): string {
  const detail = view.details[0]?.text;
  switch (result.toolName) {
    case 'list_containers': {
      const heading = view.summary.split('\n')[1] ?? '';
      const rows = detail ?? view.summary.split('\n').slice(2).join('\n');
      return describeContainerList(`${heading}\n${rows}`, view.header.lines - 1);
    }
    case 'inspect_container':
      return describeInspect([view.summary, detail ?? ''].join('\n'), input.name);
    case 'get_container_logs': {
      const counts = /(\d+) look like errors, (\d+) like warnings/.exec(view.summary);
      const errors = (detail ?? view.summary)
        .split('\n')
        .filter((line) => new RegExp(LOG_ERROR_PATTERN).test(line));
      const summary = `${view.header.lines} log lines of ${input.name ?? 'the container'} hold ${plural(Number(counts?.[1] ?? 0), 'error')} and ${plural(Number(counts?.[2] ?? 0), 'warning')}.`;
      const last = errors.at(-1);
      return last ? `${summary} The latest error: ${clip(last.trim(), 220)}` : summary;
    }
    case 'read_file':
      return describeOffloadedFile(view, input.path ?? 'the file');
    default:
      return `${result.toolName} returned ${view.header.chars.toLocaleString('en')} characters, stored as ${view.header.ref}.`;
  }
}

function describeOffloadedFile(view: OffloadedView, path: string): string {
  const more = /\[\S+: lines \d+-(\d+) of (\d+)/.exec(view.summary);
  const numbered = view.header.lines - (more ? 1 : 0);
  const shown = more
    ? `${path} has ${more[2]} lines; I read the first ${more[1]}.`
    : `${path} has ${numbered} lines.`;
  if (path.endsWith('.csv')) {
    const count = (grep: string) =>
      view.details.find((detail) => detail.input.grep === grep)?.selected ?? 0;
    return `${shown} Of the ${numbered - 1} data rows I saw, ${count(',failed,')} are failed and ${count(',pending,')} pending orders.`;
  }
  const lines = view.details.flatMap((detail) => detail.text.split('\n'));
  return describeNotable(
    shown,
    lines.filter((line) => /^\s*\d+\t/.test(line)).map(stripLineNumber),
  );
}

function describeResult(result: ToolResultPart, input: Record<string, string>): string {
  const output = toolOutputText(result.output);
  if (result.isError) return `${result.toolName} failed: ${firstLine(output)}`;
  switch (result.toolName) {
    case 'list_containers':
      return describeContainerList(output);
    case 'inspect_container':
      return describeInspect(output, input.name);
    case 'get_container_logs':
      return describeLogs(output, input.name);
    case 'list_files':
      return describeFileList(output);
    case 'read_file':
      return describeFile(output, input.path ?? 'the file');
    default:
      return `${result.toolName} returned ${output.length.toLocaleString('en')} characters.`;
  }
}

function describeContainerList(output: string, total?: number): string {
  const rows = output
    .split('\n')
    .slice(1)
    .filter((line) => /\S/.test(line) && !line.startsWith('['));
  const groups = {
    healthy: [] as string[],
    unhealthy: [] as string[],
    restarting: [] as string[],
    failed: [] as string[],
    stopped: [] as string[],
  };
  for (const row of rows) {
    const name = row.trim().split(/\s+/).at(-1) ?? '?';
    const code = /(?:Restarting|Exited) \((\d+)\)/.exec(row)?.[1];
    if (/Restarting/.test(row)) groups.restarting.push(`${name} (exit ${code})`);
    else if (/Exited \(0\)/.test(row)) groups.stopped.push(name);
    else if (/Exited/.test(row)) groups.failed.push(`${name} (exit ${code})`);
    else if (/unhealthy/.test(row)) groups.unhealthy.push(name);
    else groups.healthy.push(name);
  }
  // From a list of the unhealthy rows only, the rest of the total are healthy.
  const healthy =
    total === undefined ? groups.healthy.length : total - rows.length + groups.healthy.length;
  const parts = [`${total ?? rows.length} containers: ${healthy} up and healthy`];
  if (groups.unhealthy.length > 0) parts.push(`up but unhealthy: ${groups.unhealthy.join(', ')}`);
  if (groups.restarting.length > 0) parts.push(`restarting: ${groups.restarting.join(', ')}`);
  if (groups.failed.length > 0) parts.push(`exited with an error: ${groups.failed.join(', ')}`);
  if (groups.stopped.length > 0) parts.push(`finished normally: ${groups.stopped.join(', ')}`);
  return `${parts.join('; ')}.`;
}

function describeInspect(output: string, name = 'the container'): string {
  // Reads `"Key": value` in JSON, and `$[0].Path.Key: value` in an offloaded output's summary.
  const field = (key: string) =>
    new RegExp(`(?:"|\\.)${key}"?:\\s*("?)([^",\\n]*)\\1`).exec(output)?.[2];
  const status = field('Status') ?? 'unknown';
  const facts = [`${name} is ${status}`];
  const exitCode = field('ExitCode');
  if (exitCode !== undefined && exitCode !== '0') facts.push(`last exit code ${exitCode}`);
  if (field('OOMKilled') === 'true')
    facts.push('killed by the kernel for running out of memory (OOMKilled)');
  const restarts = field('RestartCount');
  if (restarts !== undefined && restarts !== '0') facts.push(`restarted ${restarts} times`);
  const memory = Number(field('Memory'));
  if (memory > 0) facts.push(`memory limit ${Math.round(memory / 1048576)} MiB`);
  const health = /"Health":\s*\{\s*"Status":\s*"(\w+)"|\.Health\.Status:\s*"(\w+)"/.exec(output);
  if (health) facts.push(`health check ${health[1] ?? health[2]}`);
  const heap = /max-old-space-size=(\d+)/.exec(output)?.[1];
  if (heap) facts.push(`Node heap limit ${heap} MB (NODE_OPTIONS)`);
  return `${facts.join(', ')}.`;
}

function describeLogs(output: string, name = 'the container'): string {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  const errors = lines.filter((line) =>
    /\b(ERROR|FATAL|fatal|error)\b|"level":"error"|\[error\]|level=ERROR/.test(line),
  );
  const warnings = lines.filter((line) => /\b(WARN|WARNING|warning)\b|"level":"warn"/.test(line));
  const summary = `${lines.length} log lines of ${name} hold ${plural(errors.length, 'error')} and ${plural(warnings.length, 'warning')}.`;
  const last = errors.at(-1);
  return last ? `${summary} The latest error: ${clip(last.trim(), 220)}` : summary;
}

function describeFileList(output: string): string {
  const total = /(\d+) files, ([\d,]+) bytes/.exec(output);
  return total
    ? `The directory holds ${plural(Number(total[1]), 'file')} (${total[2]} bytes).`
    : 'I listed the directory.';
}

function describeFile(output: string, path: string): string {
  const lines = output.split('\n').filter((line) => /^\s*\d+\t/.test(line));
  const content = lines.map(stripLineNumber);
  const more = /\[\S+: lines \d+-(\d+) of (\d+)/.exec(output);
  const shown = more
    ? `${path} has ${more[2]} lines; I read the first ${more[1]}.`
    : `${path} has ${lines.length} lines.`;
  if (path.endsWith('.csv')) {
    const failed = content.filter((line) => /,failed,/.test(line)).length;
    const pending = content.filter((line) => /,pending,/.test(line)).length;
    return `${shown} Of the ${content.length - 1} data rows I saw, ${failed} are failed and ${pending} pending orders.`;
  }
  const notable = content.filter((line) => new RegExp(NOTABLE_LINE_PATTERN, 'i').test(line));
  if (notable.length === 0)
    return `${shown} It starts: ${clip(content.slice(0, 3).join(' / '), 200)}`;
  return describeNotable(shown, notable);
}

/** The file's description with the lines that matter listed under it. */
function describeNotable(shown: string, notable: readonly string[]): string {
  if (notable.length === 0) return shown;
  return `${shown} The lines that matter:\n${notable
    .slice(0, 8)
    .map((line) => `- ${clip(line.trim(), 160)}`)
    .join('\n')}`;
}

function stripLineNumber(line: string): string {
  return line.replace(/^\s*\d+\t/, '');
}

/** A conclusion drawn across results, when the facts support one. */
function diagnose(outputs: readonly string[]): string | undefined {
  const text = outputs.join('\n');
  const heap = Number(/max-old-space-size=(\d+)/.exec(text)?.[1]);
  const memory = Number(/(?:"|\.)Memory"?:\s*(\d+)/.exec(text)?.[1]) / 1048576;
  if (heap > 0 && memory > 0 && heap >= memory) {
    return (
      `Diagnosis: the Node heap may grow to ${heap} MB but the container may use only ${Math.round(memory)} MiB, ` +
      'so the kernel kills the process (exit 137) before V8 reaches its own limit. Raise the memory limit above ' +
      'the heap limit with headroom, or lower the heap limit.'
    );
  }
  if (/remaining connection slots are reserved/.test(text)) {
    return 'Diagnosis: PostgreSQL is out of connection slots; the pools of its clients add up to more than max_connections allows.';
  }
  if (/missing required environment variable (\w+)/.test(text)) {
    const variable = /missing required environment variable (\w+)/.exec(text)?.[1];
    return `Diagnosis: the service stops at start-up because ${variable} is not set.`;
  }
  if (/certificate has expired/.test(text)) {
    return 'Diagnosis: the relay host certificate has expired and TLS verification is required, so the relay exits on start.';
  }
  return undefined;
}

function summarize(earlier: readonly Message[]): string {
  const findings = earlier
    .filter((message) => message.role === 'assistant' && typeof message.content === 'string')
    .map((message) => firstLine(messageText(message)))
    .filter((line) => line.length > 0);
  if (findings.length === 0)
    return 'Nothing has been checked yet in what I can see of this conversation.';
  const recent = findings.slice(-8);
  return `Summary of what I can still see (${recent.length} of ${findings.length} earlier answers):\n${recent
    .map((line) => `- ${clip(line, 200)}`)
    .join('\n')}`;
}

function wasCut(output: string): boolean {
  return /characters? (?:truncated|omitted|cut)|lines? omitted|\[\.\.\.|…\s*\[|output of \w+ dropped/i.test(
    output,
  );
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').trim();
}

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
