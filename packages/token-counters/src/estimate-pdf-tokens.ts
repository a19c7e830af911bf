import { type OptionKeys, optionChecker } from '@ctxkit/context-core';
import { checkInteger, checkName, checkOneOf, invalidOption } from './check-option.js';
import { countAnthropicImageTokens } from './count-anthropic-image-tokens.js';
import {
  GEMINI_MEDIA_RESOLUTIONS,
  type GeminiMediaResolution,
} from './count-gemini-image-tokens.js';
import { countOpenAIImageTokens } from './count-openai-image-tokens.js';
import { geminiMajorVersion } from './gemini-model-version.js';
import { OPENAI_IMAGE_DETAILS, type OpenAIImageDetail } from './openai-image-tokenization.js';

/** What is known of a PDF: its page count and, when extracted and counted, its text's tokens. */
export interface PdfDocument {
  /** Pages in the PDF; when unknown, the provider's page limit is assumed. */
  readonly pages?: number;
  /** Tokens of the PDF's extracted text; when unknown, 3,000 per page are assumed. */
  readonly textTokens?: number;
}

/** The model a PDF is sent to, and the settings that change what its pages cost. */
export type PdfTarget =
  | { readonly provider: 'anthropic'; readonly model: string }
  | { readonly provider: 'openai'; readonly model: string; readonly detail?: OpenAIImageDetail }
  | {
      readonly provider: 'gemini';
      readonly model: string;
      readonly mediaResolution?: GeminiMediaResolution;
    };

/**
 * Refuses a target holding a key its provider does not take (a misspelt `detail`, or a
 * `mediaResolution` sent to OpenAI), naming the closest known one.
 *
 * @param caller - the public function that was called, named in the error
 * @param target - the target, its `provider` already checked
 * @throws InvalidOptionError (`unknown_option`) for such a key
 */
export function checkTargetKeys(caller: string, target: PdfTarget): void {
  optionChecker('token-counters', caller).knownKeys(target, TARGET_KEYS[target.provider], 'target');
}

const TARGET_KEYS = Object.freeze({
  anthropic: { provider: true, model: true } satisfies OptionKeys<
    Extract<PdfTarget, { provider: 'anthropic' }>
  >,
  openai: { provider: true, model: true, detail: true } satisfies OptionKeys<
    Extract<PdfTarget, { provider: 'openai' }>
  >,
  gemini: { provider: true, model: true, mediaResolution: true } satisfies OptionKeys<
    Extract<PdfTarget, { provider: 'gemini' }>
  >,
});

/**
 * Text tokens assumed per page when the text's tokens are unknown: the top of the 1,500–3,000
 * tokens per page Anthropic's PDF guide gives, so that dense pages are not undercounted. OpenAI
 * and Google publish no such figure; the same assumption is used for them.
 */
export const PDF_TEXT_TOKENS_PER_PAGE = 3000;

/**
 * Most pages one request may carry, assumed when the page count is unknown so that the estimate
 * never undercounts: OpenAI 100, Anthropic 600 (100 on models with a 200k-token window), Gemini
 * 1000. Pass `pages` for a usable estimate.
 */
export const PDF_PAGE_LIMITS: Readonly<Record<PdfTarget['provider'], number>> = Object.freeze({
  openai: 100,
  anthropic: 600,
  gemini: 1000,
});

/** Tokens of one PDF page on Gemini 2.5 and earlier, text included. */
export const GEMINI_PDF_PAGE_TOKENS = 258;

/**
 * Tokens of one PDF page's image on Gemini 3 by `media_resolution` (its text is counted on top);
 * `unspecified` is `medium`, the default for PDFs. `ultra_high` does not apply to PDFs.
 */
export const GEMINI_3_PDF_PAGE_TOKENS: Readonly<
  Record<Exclude<GeminiMediaResolution, 'ultra_high'>, number>
> = Object.freeze({ low: 280, medium: 560, high: 1120, unspecified: 560 });

const CALLER = 'estimatePdfTokens';
const PROVIDERS = ['openai', 'anthropic', 'gemini'] as const;

/**
 * An estimate of the input tokens a PDF costs — an estimate, because no provider publishes an
 * exact rule: each page is sent as its extracted text plus an image of the page, and the page
 * image's size is chosen by the provider, not by the caller.
 *
 * - Anthropic: text plus one image per page. The text's tokens are `textTokens`, or 3,000 per
 *   page (the top of the guide's 1,500–3,000). A page image is counted at the most an image costs
 *   on the model's tier (1568 visual tokens, 4784 on the high-resolution tier): the API
 *   rasterizes pages at a size the caller cannot see, and no image costs more.
 * - OpenAI: the same shape ("both the extracted text and an image of each page"); the page image
 *   is counted at the most an image costs on the model at `detail` (default `auto`).
 * - Gemini 3: the page's `media_resolution` budget (unspecified = medium, 560) plus its text.
 *   Gemini 2.5 and earlier: 258 tokens per page, text included; `textTokens` is not used.
 *
 * An unknown page count assumes the provider's page limit (OpenAI 100, Anthropic 600, Gemini
 * 1000): the most a request can carry, so the estimate never undercounts, and is too large to be
 * useful. Count the pages (the `/Count` of the PDF's page tree) and pass them.
 *
 * @param pdf - The page count and the extracted text's tokens, each when known.
 * @param target - The provider and model, with OpenAI's `detail` or Gemini's `mediaResolution`.
 * @returns the estimated input tokens of the PDF
 * @throws InvalidOptionError (`invalid_option`) when `pages` is not a positive integer,
 *   `textTokens` not a non-negative integer, the provider unknown, the model not one of the
 *   provider's (Gemini), or a setting not one of its values (including `ultra_high` for a PDF)
 * @see https://platform.claude.com/docs/en/build-with-claude/pdf-support ("Estimate your costs")
 * @see https://developers.openai.com/api/docs/guides/pdf-files ("How it works", "Usage considerations")
 * @see https://ai.google.dev/gemini-api/docs/document-processing ("Technical details")
 * @see https://ai.google.dev/gemini-api/docs/media-resolution ("Token counts")
 */
export function estimatePdfTokens(pdf: PdfDocument, target: PdfTarget): number {
  if (typeof pdf !== 'object' || pdf === null) {
    throw invalidOption(CALLER, 'pdf', pdf, 'an object with pages and textTokens');
  }
  if (typeof target !== 'object' || target === null) {
    throw invalidOption(CALLER, 'target', target, 'an object with provider and model');
  }
  const provider = checkOneOf(CALLER, 'target.provider', target.provider, PROVIDERS);
  checkTargetKeys(CALLER, target);
  checkName(CALLER, 'target.model', target.model);
  const pages =
    pdf.pages === undefined
      ? PDF_PAGE_LIMITS[provider]
      : checkInteger(CALLER, 'pages', pdf.pages, 1, 'a positive integer');
  const textTokens =
    pdf.textTokens === undefined
      ? pages * PDF_TEXT_TOKENS_PER_PAGE
      : checkInteger(CALLER, 'textTokens', pdf.textTokens, 0, 'a non-negative integer');
  switch (target.provider) {
    case 'anthropic':
      return textTokens + pages * countAnthropicImageTokens({}, target.model);
    case 'openai': {
      const detail = checkOneOf(
        CALLER,
        'target.detail',
        target.detail ?? 'auto',
        OPENAI_IMAGE_DETAILS,
      );
      return textTokens + pages * countOpenAIImageTokens({ detail }, target.model);
    }
    case 'gemini':
      return geminiPdfTokens(pages, textTokens, target.model, target.mediaResolution);
  }
}

// --- internal helpers ---

function geminiPdfTokens(
  pages: number,
  textTokens: number,
  model: string,
  mediaResolution: GeminiMediaResolution | undefined,
): number {
  const resolution = checkOneOf(
    CALLER,
    'target.mediaResolution',
    mediaResolution ?? 'unspecified',
    GEMINI_MEDIA_RESOLUTIONS.filter((value) => value !== 'ultra_high'),
  );
  if (geminiMajorVersion(model, CALLER) < 3) return pages * GEMINI_PDF_PAGE_TOKENS;
  return (
    textTokens +
    pages * GEMINI_3_PDF_PAGE_TOKENS[resolution as keyof typeof GEMINI_3_PDF_PAGE_TOKENS]
  );
}
