export { sameData } from '../same-data.js';
export {
  arbitraryHistory,
  arbitraryHistoryWithBudget,
  type HistoryArbitraryOptions,
} from './arbitraries.js';
export {
  type CompressionCase,
  compressionInvariants,
  type MeasuredCompressionCase,
  mandatoryTokens,
  measureCompressionCase,
} from './compression-invariants.js';
export { contextErrorRejectedBy, contextErrorThrownBy } from './context-error-thrown-by.js';
export { deepFreeze } from './deep-freeze.js';
export {
  DEFAULT_FUZZ_SEED,
  type FuzzParameters,
  fuzzParameters,
  fuzzSeed,
} from './fuzz-parameters.js';
export { kitCounter } from './kit-counter.js';
export { SAMPLE_TEXT_KINDS, type SampleTextKind, sampleText } from './sample-text.js';
export { type SeededRandom, seededRandom } from './seeded-random.js';
export { type SpyCounter, spyCounter } from './spy-counter.js';
export {
  forgeCounts,
  type TestCompressorOptions,
  testCompressor,
} from './test-compressor.js';
export { type TestEventStoreOptions, testEventStore } from './test-event-store.js';
export { type TestHistoryStoreOptions, testHistoryStore } from './test-history-store.js';
export { type TestSummaryStoreOptions, testSummaryStore } from './test-summary-store.js';
export { type TestToolOutputStoreOptions, testToolOutputStore } from './test-tool-output-store.js';
export { unknownOptionRefused } from './unknown-option-refused.js';
