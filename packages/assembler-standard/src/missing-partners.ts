/** The ids a history refers to without holding what they name: what validation must take as known. */
export interface MissingPartners {
  /** Tool calls that results or approval requests name but no message makes. */
  toolCallIds: string[];
  /** Approval requests that responses name but no message makes. */
  approvalIds: string[];
}

/**
 * The ids of tool results and approval requests whose call is in none of `messages`, and of
 * approval responses whose request is in none of them, read defensively (the messages are not
 * validated yet): what `validateMessages` must take as known for such orphans to pass it, so
 * that the repair, not validation, deals with them.
 */
export function missingPartners(messages: readonly unknown[]): MissingPartners {
  const calls = new Set<unknown>();
  const requests = new Set<unknown>();
  const namedCalls: unknown[] = [];
  const namedRequests: unknown[] = [];
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content as (PartFields | null)[]) {
      switch (part?.type) {
        case 'tool-call':
          calls.add(part.toolCallId);
          break;
        case 'tool-result':
          namedCalls.push(part.toolCallId);
          break;
        case 'tool-approval-request':
          requests.add(part.approvalId);
          namedCalls.push(part.toolCallId);
          break;
        case 'tool-approval-response':
          namedRequests.push(part.approvalId);
          break;
      }
    }
  }
  return {
    toolCallIds: absent(namedCalls, calls),
    approvalIds: absent(namedRequests, requests),
  };
}

// --- internal helpers ---

interface PartFields {
  type?: unknown;
  toolCallId?: unknown;
  approvalId?: unknown;
}

function absent(named: readonly unknown[], present: Set<unknown>): string[] {
  return named.filter((id): id is string => typeof id === 'string' && !present.has(id));
}
