import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { invalidToolInput } from './tool.js';

/**
 * The real path of `path` (relative to the sandbox root) if it lies inside the sandbox, after
 * following symbolic links. Throws {@link invalidToolInput} for a path that leaves it (`..`, an
 * absolute path elsewhere, a link pointing out) or does not exist.
 */
export async function resolveSandboxPath(
  tool: string,
  root: string,
  path: string,
): Promise<string> {
  const realRoot = await realpath(root);
  const target = resolve(realRoot, path.replace(/^\/+/, ''));
  let realTarget: string;
  try {
    realTarget = await realpath(target);
  } catch {
    throw invalidToolInput(tool, `no such file or directory: ${path}`);
  }
  const inside = relative(realRoot, realTarget);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw invalidToolInput(
      tool,
      `${path} is outside the sandbox; paths are relative to the sandbox root.`,
    );
  }
  return realTarget;
}

/** `path` relative to the sandbox root, with forward slashes, `.` for the root itself. */
export function sandboxRelative(realRoot: string, path: string): string {
  return relative(realRoot, path).split(sep).join('/') || '.';
}
