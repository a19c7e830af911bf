import {
  type ContextCompressor,
  composeCompressors,
  type OptionKeys,
  optionChecker,
} from '@ctxkit/context-core';
import { dropOutOfReach } from './drop-out-of-reach.js';
import {
  DEFAULT_MASK_KEEP_RECENT,
  DEFAULT_MASK_KEEP_RECENT_MEDIA,
  DEFAULT_MASK_MIN_CHARS,
  type MaskOldToolResultsOptions,
  maskOldToolResults,
  oldestRecentMedia,
  oldestRecentResult,
} from './mask-old-tool-results.js';
import { hasMedia } from './media-parts.js';
import { namedCompressor } from './named-compressor.js';
import { SOURCE } from './package-source.js';
import {
  DEFAULT_WINDOW_KEEP_RECENT,
  DEFAULT_WINDOW_RATIO,
  type SlidingWindowOptions,
  slidingWindow,
} from './sliding-window.js';
import {
  DEFAULT_THINKING_KEEP_RECENT,
  hasThinking,
  isThinkingOnly,
  oldestRecentThinker,
  type StripOldThinkingOptions,
  stripOldThinking,
} from './strip-old-thinking.js';
import { trimToBudget } from './trim-to-budget.js';
import { hasOutputOver } from './truncate-tool-results.js';
import type { TruncationMarker } from './truncation-marker.js';

/** Options of {@link threeLayer}. */
export interface ThreeLayerOptions {
  /**
   * Layer 1: masking of old tool outputs and media (by default keep 6 recent results and 6 recent
   * media, mask over 500 characters, 3 + 2 lines).
   * @default `{}`
   */
  toolResults?: MaskOldToolResultsOptions;
  /**
   * Layer 2: stripping of old thinking (by default keep the newest 1).
   * @default `{}`
   */
  thinking?: StripOldThinkingOptions;
  /**
   * Layer 3: the sliding window (by default above 0.75 of the budget, keep 20 recent and the
   * first user message); its `keepFirstUser` applies to the final trim too.
   * @default `{}`
   */
  window?: SlidingWindowOptions;
  /**
   * Marker of the final trim, used when even the newest unit does not fit.
   * @default `defaultTruncationMarker`
   */
  marker?: TruncationMarker;
}

/**
 * The three-layer preset, named `three-layer`: `maskOldToolResults` (old tool outputs, images and
 * files) and `stripOldThinking` on every call, `slidingWindow` above `ratio` of the budget, then
 * `trimToBudget` (keeping the first user message as the window does) for what the window may leave
 * over budget. It first drops the units the trim would drop anyway (step `out-of-reach`), so the
 * layers never reshape history about to go. Always fits the budget when the system, pinned and
 * newest units can. Because layers 1 and 2 run on every call, a history that fits still has its old
 * tool outputs masked and its old thinking removed.
 *
 * @param options - the options of each layer and the marker of the final trim
 * @returns the composed compressor
 * @throws InvalidOptionError (`invalid_option`) at creation when an option of a layer is invalid,
 *   as {@link maskOldToolResults}, {@link stripOldThinking} and {@link slidingWindow} check them,
 *   or `marker` is not a function
 */
export function threeLayer(options: ThreeLayerOptions = {}): ContextCompressor {
  optionChecker(SOURCE, 'threeLayer').knownKeys(options, OPTION_KEYS);
  const keepFirstUser = options.window?.keepFirstUser ?? true;
  const mask = maskOldToolResults(options.toolResults);
  const strip = stripOldThinking(options.thinking);
  const window = slidingWindow(options.window);
  const trim = trimToBudget({
    keepFirstUser,
    ...(options.marker === undefined ? {} : { marker: options.marker }),
  });
  const minChars = options.toolResults?.minChars ?? DEFAULT_MASK_MIN_CHARS;
  const recentResults = options.toolResults?.keepRecentResults ?? DEFAULT_MASK_KEEP_RECENT;
  const recentMedia = options.toolResults?.keepRecentMedia ?? DEFAULT_MASK_KEEP_RECENT_MEDIA;
  const recentThinkers = options.thinking?.keepRecentThinking ?? DEFAULT_THINKING_KEEP_RECENT;
  return namedCompressor(
    'three-layer',
    composeCompressors(
      dropOutOfReach({
        mayShrink: (message) =>
          hasOutputOver(message, minChars) || hasThinking(message) || hasMedia(message),
        keepFirstUser,
        isRanked: (message) => message.role === 'tool' || hasThinking(message) || hasMedia(message),
        recentFrom: (messages) =>
          Math.min(
            oldestRecentResult(messages, recentResults),
            oldestRecentThinker(messages, recentThinkers),
            oldestRecentMedia(messages, recentMedia),
          ),
        mayVanish: isThinkingOnly,
        window: {
          ratio: options.window?.ratio ?? DEFAULT_WINDOW_RATIO,
          keepRecentMessages: options.window?.keepRecentMessages ?? DEFAULT_WINDOW_KEEP_RECENT,
        },
      }),
      mask,
      strip,
      window,
      trim,
    ),
  );
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  toolResults: true,
  thinking: true,
  window: true,
  marker: true,
} satisfies OptionKeys<ThreeLayerOptions>);
