/**
 * The form of a model id that the model table matches on: lower case, without what hosts add
 * around the family name. It drops a provider or path prefix (`openai/`, `models/`,
 * `meta-llama/`), a Vertex date (`@20241022`), a tag or revision after `:` (Ollama's `:8b`,
 * Bedrock's `:0`, OpenRouter's `:free`), a Bedrock region and vendor (`us.anthropic.`), and writes
 * a dot between version digits as a dash (`claude-3.5-sonnet` → `claude-3-5-sonnet`,
 * `llama3.1` → `llama3-1`), except inside a parameter count (`1.5b`).
 */
export function canonicalModelId(id: string): string {
  let canonical = id.trim().toLowerCase();
  canonical = canonical.slice(canonical.lastIndexOf('/') + 1);
  canonical = canonical.split('@')[0] ?? '';
  canonical = canonical.split(':')[0] ?? '';
  canonical = canonical.replace(BEDROCK_PREFIX, '').replaceAll('_', '-');
  return canonical
    .split('-')
    .map((token) => (SIZE.test(token) ? token : token.replace(/(\d)\.(?=\d)/g, '$1-')))
    .join('-');
}

/**
 * The key of `keys` (all canonical, see {@link canonicalModelId}) that names the model `id`
 * (canonical too): the id itself, or else the longest key that the id extends with nothing but a
 * snapshot's decorations: dates and version numbers of two or more digits (`2024-08-06`,
 * `20250929`, `0613`, `001`), `latest`, `preview`, `exp`, a `v2` revision, or a parameter count
 * (`70b`, `a22b`, `8x7b`) and whatever a host appends after it. So `gpt-4o-2024-08-06` is
 * `gpt-4o`, while `gpt-4` never claims `gpt-4o`, `gpt-4-turbo` or `gpt-4.1` (`gpt-4-1`), and
 * `claude-sonnet-4` never claims `claude-sonnet-4-5`: another model is unknown until it has a row.
 */
export function matchModelId(id: string, keys: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const key of keys) {
    if (key === id) return key;
    if (!id.startsWith(`${key}-`) || (best !== undefined && key.length <= best.length)) continue;
    if (isDecoration(id.slice(key.length + 1).split('-'))) best = key;
  }
  return best;
}

// --- internal helpers ---

/** A Bedrock id's optional cross-region prefix and its vendor: `us.anthropic.`, `meta.`. */
const BEDROCK_PREFIX =
  /^(?:(?:us|eu|apac|jp|au|ca|global|us-gov)\.)?(?:anthropic|meta|mistral|deepseek|qwen|moonshot|moonshotai|openai|google)\./;

/** A parameter count: `8b`, `1.5b`, `70b`, `a22b` (active), `8x7b`, `500m`. */
const SIZE = /^(?:a?\d+(?:\.\d+)?[bm]|\d+x\d+b)$/;

/** A token of a snapshot's name that does not make it another model. */
const SNAPSHOT_TOKEN = /^(?:\d{2,}|latest|preview|exp|v\d+)$/;

function isDecoration(tokens: readonly string[]): boolean {
  for (const token of tokens) {
    if (SIZE.test(token)) return true; // what follows a size is the host's: instruct, fp8, turbo
    if (!SNAPSHOT_TOKEN.test(token)) return false;
  }
  return true;
}
