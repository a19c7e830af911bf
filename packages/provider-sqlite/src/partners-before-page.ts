import type { Message, ValidateMessagesOptions } from '@ctxkit/context-core';

/**
 * The tool calls and approval requests that the messages of a page answer without holding them:
 * they were stored earlier in the archive, on an earlier page, where they were checked when
 * appended. Validating the page with them as known checks everything else a page can show.
 */
export function partnersBeforePage(messages: readonly Message[]): ValidateMessagesOptions {
  const calls = new Set<string>();
  const approvals = new Set<string>();
  const knownToolCallIds = new Set<string>();
  const knownApprovalIds = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      switch (part.type) {
        case 'tool-call':
          calls.add(part.toolCallId);
          break;
        case 'tool-result':
          if (!calls.has(part.toolCallId)) knownToolCallIds.add(part.toolCallId);
          break;
        case 'tool-approval-request':
          if (!calls.has(part.toolCallId)) knownToolCallIds.add(part.toolCallId);
          approvals.add(part.approvalId);
          break;
        case 'tool-approval-response':
          if (!approvals.has(part.approvalId)) knownApprovalIds.add(part.approvalId);
          break;
      }
    }
  }
  return { knownToolCallIds, knownApprovalIds };
}
