export { type ChatCompleteOptions, chatComplete, type PiComplete } from './chat-complete.js';
export {
  type ContextTransformOptions,
  contextTransform,
  type PromptSource,
  type TransformContext,
} from './context-transform.js';
export { fromCtxkitMessage, fromCtxkitMessages } from './from-ctxkit-messages.js';
export { isPiModel, piModelInfo } from './pi-model-info.js';
export {
  type RepairedMessages,
  repairToolResults,
  type ToolResultRepair,
} from './repair-tool-results.js';
export { type ToCtxkitOptions, toCtxkitMessage, toCtxkitMessages } from './to-ctxkit-messages.js';
