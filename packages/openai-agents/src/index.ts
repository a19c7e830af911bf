export { agentToolDeclarations } from './agent-tool-declarations.js';
export {
  type ContextInputFilterOptions,
  contextInputFilter,
  type InputFit,
} from './context-input-filter.js';
export { itemsToMessages } from './items-to-messages.js';
export { messagesToItems } from './messages-to-items.js';
export { type ModelCompleteOptions, modelComplete } from './model-complete.js';
export { createProviderSession, type ProviderSessionOptions } from './provider-session.js';
export type { OrphanResultRepair } from './repair-orphan-results.js';
