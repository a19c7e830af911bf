export { type ChatModelLike, chatComplete } from './chat-complete.js';
export { type ContextMiddlewareOptions, contextMiddleware } from './context-middleware.js';
export { type ContextTrimmerOptions, contextTrimmer } from './context-trimmer.js';
export {
  fitLangChainMessages,
  type LangChainFitOptions,
  type LangChainFitResult,
} from './fit-langchain-messages.js';
export { type ManagerChoice, resolveManager } from './resolve-manager.js';
export {
  type ConversionRepair,
  type CtxkitConversion,
  type ToCtxkitOptions,
  toCtxkitMessages,
} from './to-ctxkit-messages.js';
export { toLangChainMessages } from './to-langchain-messages.js';
export { toolDeclarations } from './tool-declarations.js';
