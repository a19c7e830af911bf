import type { CountKind } from '@ctxkit/context-core';

/** Reports a calibration learns from: the newest ones, as tokenizers drift with the content. */
export const CALIBRATION_SAMPLES = 16;

/**
 * The margin while reports are few: this share divided by the square root of their number (4%
 * after one report, 2% after four, 1% after sixteen), added to the spread the reports show.
 */
export const CALIBRATION_BASE_MARGIN = 0.02;

/**
 * The bounds of the factor learnt: tokenizers of one language differ by far less than half or
 * double, so a report outside them is taken as the bound (a usage of another request, or a
 * misread field, cannot blow the budget up).
 */
export const CALIBRATION_FACTOR_BOUNDS = Object.freeze({ min: 0.5, max: 2 });

/**
 * A budget in the provider's tokens as the counter's: `providerTokens / (factor × (1 +
 * margin))`, rounded down, at least 1; the budget a fit of that calibration keeps to.
 *
 * @param providerTokens - the budget in the provider's tokens
 * @param calibration - the factor and margin of a fit (`FitReport.calibration`)
 * @returns the budget in the counter's tokens
 */
export function inCounterTokens(
  providerTokens: number,
  calibration: { readonly factor: number; readonly margin: number },
): number {
  return Math.max(1, Math.floor(providerTokens / (calibration.factor * (1 + calibration.margin))));
}

/**
 * The counter's tokens as the provider's, the other way from {@link inCounterTokens}: rounded
 * down, so that a fit to it keeps to at most `counterTokens`.
 *
 * @param counterTokens - tokens by the counter
 * @param calibration - the factor and margin of a fit (`FitReport.calibration`)
 * @returns the provider's tokens, at least 1
 */
export function inProviderTokens(
  counterTokens: number,
  calibration: { readonly factor: number; readonly margin: number },
): number {
  return Math.max(1, Math.floor(counterTokens * calibration.factor * (1 + calibration.margin)));
}

/**
 * The widest margin: one report far off the others (a usage of another request) widens the
 * margin for the {@link CALIBRATION_SAMPLES} reports it is kept, but never shrinks the budget by
 * more than this share, so fits still go out and newer reports push it out.
 */
export const CALIBRATION_MAX_MARGIN = 0.25;

/** A budget in the counter's tokens, and how it was made. */
export interface CalibratedBudget {
  /** The budget to fit to, in the counter's tokens. */
  readonly maxTokens: number;
  /** How far the counts can be trusted. */
  readonly kind: CountKind;
  /** Provider tokens per counted token; 1 before any report. */
  readonly factor: number;
  /** The share of the budget kept free for the factor's error. */
  readonly margin: number;
  /** Reports learnt from. */
  readonly samples: number;
}

/** Learns how a counter's counts relate to a provider's, from the provider's reports. */
export interface UsageCalibration {
  /**
   * Learns from one request.
   *
   * @param counted - the prompt's tokens by the counter
   * @param reported - the provider's input tokens for it
   */
  record(counted: number, reported: number): void;
  /**
   * The budget in the counter's tokens that keeps a prompt within `providerMaxTokens` by the
   * provider's count: `providerMaxTokens / (factor × (1 + margin))`, rounded down.
   *
   * @param providerMaxTokens - the budget in the provider's tokens
   * @returns the budget and how it was made
   */
  budget(providerMaxTokens: number): CalibratedBudget;
}

/**
 * A calibration: the factor is the provider's tokens over the counter's, summed over the newest
 * {@link CALIBRATION_SAMPLES} reports (so large prompts weigh more); the margin is the most any
 * of the larger of those reports went over the factor's prediction, plus
 * {@link CALIBRATION_BASE_MARGIN} over the square root of their number, at most
 * {@link CALIBRATION_MAX_MARGIN}.
 *
 * @param uncalibrated - what counts are before any report: `exact` for the model's own tokenizer
 * @returns the calibration, with nothing learnt yet
 */
export function createUsageCalibration(uncalibrated: 'exact' | 'estimated'): UsageCalibration {
  const samples: { counted: number; reported: number }[] = [];
  return {
    record(counted, reported) {
      if (counted < 1 || reported < 1) return;
      samples.push({ counted, reported });
      if (samples.length > CALIBRATION_SAMPLES) samples.shift();
    },
    budget(providerMaxTokens) {
      if (samples.length === 0) {
        return {
          maxTokens: providerMaxTokens,
          kind: uncalibrated,
          factor: 1,
          margin: 0,
          samples: 0,
        };
      }
      let counted = 0;
      let reported = 0;
      let largest = 0;
      for (const sample of samples) {
        counted += sample.counted;
        reported += sample.reported;
        largest = Math.max(largest, sample.counted);
      }
      const { min, max } = CALIBRATION_FACTOR_BOUNDS;
      const factor = Math.min(max, Math.max(min, reported / counted));
      // Small prompts are mostly framing, whose ratio is not the content's: the spread is read
      // from the prompts at least a quarter the size of the largest.
      let spread = 0;
      for (const sample of samples) {
        if (sample.counted * 4 < largest) continue;
        spread = Math.max(spread, sample.reported / (factor * sample.counted) - 1);
      }
      const margin = Math.min(
        CALIBRATION_MAX_MARGIN,
        spread + CALIBRATION_BASE_MARGIN / Math.sqrt(samples.length),
      );
      return {
        maxTokens: inCounterTokens(providerMaxTokens, { factor, margin }),
        kind: 'calibrated',
        factor,
        margin,
        samples: samples.length,
      };
    },
  };
}
