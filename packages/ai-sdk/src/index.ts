export { callToolDeclarations } from './call-tool-declarations.js';
export { type ChatCompleteOptions, chatComplete } from './chat-complete.js';
export type { ContextAdapterOptions } from './context-adapter-options.js';
export { contextMiddleware } from './context-middleware.js';
export {
  type ContextPrepareStepOptions,
  contextPrepareStep,
  type PrepareStepInput,
  type PreviousStep,
} from './context-prepare-step.js';
export { fromModelMessages, toModelMessages } from './model-messages.js';
export { MARKER_KEY, type PartMarker } from './part-marker.js';
export { fromPrompt, toPrompt } from './prompt-messages.js';
export type { PromptRepair } from './prompt-repair.js';
export type { ToContextResult } from './to-context-messages.js';
export { toolSetDeclarations } from './tool-set-declarations.js';
