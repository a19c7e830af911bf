/**
 * What the kits import from `vitest`, for a bundle that runs without vitest's Node side: the
 * same `describe`, `it` and `afterEach` (vitest re-exports them from `@vitest/runner`) and an
 * `expect` with vitest's matchers (`@vitest/expect` plugged into chai, as vitest sets it up).
 * The browser bundle test aliases `vitest` to this module; a kit that imports anything else
 * from `vitest` fails that bundle's build until it is added here.
 */
import { chai, JestAsymmetricMatchers, JestChaiExpect, JestExtend } from '@vitest/expect';

export { afterEach, describe, it } from '@vitest/runner';

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(JestAsymmetricMatchers);

/** vitest's `expect(value, message)`: an assertion with the Jest matchers. */
export const expect = (value: unknown, message?: string) => chai.expect(value, message);
