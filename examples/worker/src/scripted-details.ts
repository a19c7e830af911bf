import {
  type Message,
  type ToolCallPart,
  type ToolResultPart,
  toolCallsOf,
  toolOutputText,
  toolResultsOf,
} from '@ctxkit/context-core';
import { GET_TOOL_OUTPUT, type OffloadHeader, parseOffloadHeader } from '@ctxkit/tool-output-store';

/** A tool output that reached the scripted model as a summary, with the details it fetched. */
export interface OffloadedView {
  /** The header above the summary: ref, lines, characters. */
  header: OffloadHeader;
  /** The summary, header line removed. */
  summary: string;
  /** What each `get_tool_output` call for it returned, header line removed, by the call's input. */
  details: { input: Record<string, unknown>; text: string; selected: number }[];
}

/** Lines of a log the scripted model counts as errors. */
export const LOG_ERROR_PATTERN =
  '\\b(ERROR|FATAL|fatal|error)\\b|"level":"error"|\\[error\\]|level=ERROR';
/** Lines of a file the scripted model looks at first. */
export const NOTABLE_LINE_PATTERN =
  'REQUIRED|mem_limit|max-old-space-size|timeout|max_connections|Root cause|Follow-ups|\\*\\*Open|set -eu|pg_dump|RETENTION';

/** The offloaded outputs among the turn's results, by tool call id, with the details fetched for each. */
export function offloadedViews(turn: readonly Message[]): Map<string, OffloadedView> {
  const calls = new Map(turn.flatMap(toolCallsOf).map((call) => [call.toolCallId, call]));
  const fetched = new Map<string, OffloadedView['details']>();
  for (const result of turn.flatMap(toolResultsOf)) {
    if (result.toolName !== GET_TOOL_OUTPUT || result.isError) continue;
    const input = inputOf(calls.get(result.toolCallId));
    const ref = String(input.ref);
    const output = toolOutputText(result.output);
    const newline = output.indexOf('\n');
    const selected = Number(/(\d+) lines? selected/.exec(output.slice(0, newline))?.[1] ?? 0);
    const list = fetched.get(ref) ?? [];
    list.push({ input, text: output.slice(newline + 1), selected });
    fetched.set(ref, list);
  }
  const views = new Map<string, OffloadedView>();
  for (const result of turn.flatMap(toolResultsOf)) {
    const output = toolOutputText(result.output);
    const header = parseOffloadHeader(output);
    if (header === undefined) continue;
    const summary = output.slice(output.indexOf('\n') + 1);
    views.set(result.toolCallId, { header, summary, details: fetched.get(header.ref) ?? [] });
  }
  return views;
}

/**
 * The `get_tool_output` calls the scripted model makes for the details a summary leaves out:
 * the unhealthy rows of a container list, the environment of a container that crashed, the
 * latest errors of a log, the notable lines of a file (or the failed and pending rows of a CSV).
 * Each offloaded output is asked about once.
 */
export function detailCalls(
  results: readonly ToolResultPart[],
  views: ReadonlyMap<string, OffloadedView>,
  calls: ReadonlyMap<string, ToolCallPart>,
): Record<string, unknown>[] {
  const planned: Record<string, unknown>[] = [];
  for (const result of results) {
    const view = views.get(result.toolCallId);
    if (view === undefined || view.details.length > 0) continue;
    const { ref, lines } = view.header;
    switch (result.toolName) {
      case 'list_containers':
        planned.push({ ref, grep: 'Restarting|Exited|unhealthy' });
        break;
      case 'inspect_container':
        if (/OOMKilled: true|ExitCode: [1-9]/.test(view.summary)) {
          planned.push({ ref, json_path: '$[0].Config.Env' });
        }
        break;
      case 'get_container_logs':
        planned.push({
          ref,
          grep: LOG_ERROR_PATTERN,
          start_line: Math.max(1, lines - 29),
          max_chars: 2500,
        });
        break;
      case 'read_file':
        if (String(inputOf(calls.get(result.toolCallId)).path).endsWith('.csv')) {
          planned.push(
            { ref, grep: ',failed,', max_chars: 200 },
            { ref, grep: ',pending,', max_chars: 200 },
          );
        } else {
          planned.push({ ref, grep: NOTABLE_LINE_PATTERN });
        }
        break;
    }
  }
  return planned;
}

/** The call's input as an object. */
export function inputOf(call: ToolCallPart | undefined): Record<string, unknown> {
  const input = call?.input;
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
}
