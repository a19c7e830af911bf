export { agentToolDeclarations } from './agent-tool-declarations.js';
export { type ChatCompleteOptions, chatComplete } from './chat-complete.js';
export {
  type ContextInputFilterOptions,
  contextInputFilter,
  type InputFit,
} from './context-input-filter.js';
export { itemsToMessages } from './items-to-messages.js';
export { messagesToItems } from './messages-to-items.js';
export { createProviderSession, type ProviderSessionOptions } from './provider-session.js';
export type { OrphanResultRepair } from './repair-orphan-results.js';
