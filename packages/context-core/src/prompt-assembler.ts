import type { Message } from './message.js';

/** What {@link PromptAssembler.assemble} puts together. */
export interface AssembleInput {
  /** The system prompt, as text or messages. */
  system: string | Message[];
  /** The compressed history. */
  history: Message[];
  /** The new input, if any. */
  input?: string | Message;
}

/** Builds the final list of messages sent to the model. Pure: its input is not mutated. */
export interface PromptAssembler {
  /**
   * System first, then history, then the new input.
   *
   * @param input - the system prompt, the compressed history and the new input
   * @returns the messages to send
   */
  assemble(input: AssembleInput): Message[];
}
