import { fileURLToPath } from 'node:url';
import { SCALE_CONTENT_VERSION } from './scale-history.js';

/**
 * Where seeded databases are kept between runs (gitignored): `bench/.cache/scale/`. Each is named
 * after its size and {@link SCALE_CONTENT_VERSION}, so a change of content seeds anew.
 */
export const SCALE_CACHE = fileURLToPath(new URL('../../.cache/scale/', import.meta.url));

/** Name of the cached, seeded store of `messages` messages (a file name or a database name). */
export function seededName(messages: number): string {
  return `scale_v${SCALE_CONTENT_VERSION}_${messages}`;
}

/** The conversation every seeded store holds. */
export const SCALE_CONVERSATION = 'scale';
