/** Which part of the assembler's input a message came from. */
export type MessageSource = 'system' | 'history' | 'input';

/** One change the assembler made so that the prompt is accepted by the model APIs. */
export type PromptRepair =
  | {
      /** A tool result whose call is not in the prompt was dropped. */
      kind: 'orphan-result';
      /** Where the message holding it was. */
      where: MessageSource;
      /** Its index there (0 for the input). */
      index: number;
      /** The id of the missing call. */
      toolCallId: string;
      /** The tool named by the result. */
      toolName: string;
    }
  | {
      /**
       * A tool call without its result was dropped from its assistant message (text and reasoning
       * stay; a message left with nothing is dropped). This includes the pending calls of the
       * newest step, whose results do not exist yet.
       */
      kind: 'orphan-call';
      /** Where the assistant message was. */
      where: MessageSource;
      /** Its index there. */
      index: number;
      /** The id of the call. */
      toolCallId: string;
      /** The tool it called. */
      toolName: string;
    }
  | {
      /** A tool result that came later than right after its call was moved up to it. */
      kind: 'moved-result';
      /** Where the message holding it was. */
      where: MessageSource;
      /** Its index there. */
      index: number;
      /** The id of the call answered. */
      toolCallId: string;
      /** The tool named by the result. */
      toolName: string;
    }
  | {
      /**
       * An approval request was dropped from its assistant message because the call it asks
       * about is not in the prompt or was dropped as an orphan.
       */
      kind: 'orphan-approval-request';
      /** Where the assistant message was. */
      where: MessageSource;
      /** Its index there. */
      index: number;
      /** The request's id. */
      approvalId: string;
      /** The call it asked about. */
      toolCallId: string;
    }
  | {
      /** An approval response whose request is not in the prompt (or was dropped) was dropped. */
      kind: 'orphan-approval-response';
      /** Where the tool message holding it was. */
      where: MessageSource;
      /** Its index there. */
      index: number;
      /** The id of the missing request. */
      approvalId: string;
    }
  | {
      /** An approval response that came later than right after its request was moved up to it. */
      kind: 'moved-approval-response';
      /** Where the tool message holding it was. */
      where: MessageSource;
      /** Its index there. */
      index: number;
      /** The id of the request answered. */
      approvalId: string;
    }
  | {
      /** A text part with no visible character was removed from a message. */
      kind: 'empty-text';
      /** Where the message was. */
      where: MessageSource;
      /** Its index there. */
      index: number;
      /** The part's index in the message. */
      part: number;
    }
  | {
      /**
       * A message with nothing to send was dropped: no visible text and no other part than
       * reasoning (reasoning alone is not a turn).
       */
      kind: 'empty-message';
      /** Where it was. */
      where: MessageSource;
      /** Its index there. */
      index: number;
    }
  | {
      /**
       * A tool result's output had no visible text: a blank string output, or content output
       * whose text items are blank. Blank text items were removed from content output; an
       * output left with nothing became the assembler's `emptyOutputText`.
       */
      kind: 'empty-output';
      /** Where the message holding it was. */
      where: MessageSource;
      /** Its index there. */
      index: number;
      /** The id of the call answered. */
      toolCallId: string;
    }
  | {
      /** Whitespace at the end of a final assistant message was trimmed. */
      kind: 'trailing-whitespace';
      /** Where the message was. */
      where: MessageSource;
      /** Its index there. */
      index: number;
    }
  | {
      /**
       * A user message with the assembler's `leadingUserText` was put before the first message
       * after the system prompt, which came from the assistant.
       */
      kind: 'leading-user';
      /** Where the message it was put before came from. */
      where: MessageSource;
      /** Its index there. */
      index: number;
    };

/** The kinds of {@link PromptRepair}. */
export type PromptRepairKind = PromptRepair['kind'];
