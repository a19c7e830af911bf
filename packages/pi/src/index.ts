export {
  type ContextTransformOptions,
  contextTransform,
  type PromptSource,
  type TransformContext,
} from './context-transform.js';
export { fromCtxkitMessage, fromCtxkitMessages } from './from-ctxkit-messages.js';
export { type PiChatCompleteOptions, type PiComplete, piChatComplete } from './pi-chat-complete.js';
export { isPiModel, piModelInfo } from './pi-model-info.js';
export {
  type RepairedMessages,
  repairToolResults,
  type ToolResultRepair,
} from './repair-tool-results.js';
export { type ToCtxkitOptions, toCtxkitMessage, toCtxkitMessages } from './to-ctxkit-messages.js';
