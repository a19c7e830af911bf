/** A Claude model's family and version, read from its id. */
export interface ClaudeModelVersion {
  /** `opus`, `sonnet`, `haiku`, `fable` or `mythos`. */
  readonly family: string;
  /** Major version: 4 for `claude-opus-4-7`, 3 for `claude-3-5-haiku`. */
  readonly major: number;
  /** Minor version: 7 for `claude-opus-4-7`, 0 for `claude-sonnet-4-20250514`. */
  readonly minor: number;
}

/** `claude-opus-4-7`, `claude-sonnet-4-20250514`, `anthropic.claude-opus-4-1-20250805-v1:0`. */
const CURRENT_NAMING =
  /(?:^|[./])claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d{1,2}))?(?=$|[-@:])/;
/** `claude-3-5-haiku-20241022`, `claude-3-opus-20240229`. */
const CLAUDE_3_NAMING = /(?:^|[./])claude-(\d+)(?:-(\d))?-(opus|sonnet|haiku)(?=$|[-@:])/;

/**
 * The family and version of a Claude model id, in either naming (`claude-opus-4-7` or
 * `claude-3-5-haiku`), also behind a platform prefix (`anthropic.`, `us.anthropic.`) or with a
 * snapshot suffix (`-20250805`, `@20251101`, `-v1:0`). A date is never read as a minor version.
 *
 * @param model - The model id.
 * @returns the version, or undefined when the id is not a Claude model's
 */
export function claudeModelVersion(model: string): ClaudeModelVersion | undefined {
  const current = CURRENT_NAMING.exec(model);
  if (current) {
    return {
      family: current[1] as string,
      major: Number(current[2]),
      minor: Number(current[3] ?? 0),
    };
  }
  const legacy = CLAUDE_3_NAMING.exec(model);
  if (legacy) {
    return { family: legacy[3] as string, major: Number(legacy[1]), minor: Number(legacy[2] ?? 0) };
  }
  return undefined;
}
