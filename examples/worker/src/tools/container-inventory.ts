import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidOptionError } from '@ctxkit/context-core';

/** The shipped inventory: `data/containers` in this package. */
export const DEFAULT_CONTAINER_DATA_DIR = fileURLToPath(
  new URL('../../data/containers', import.meta.url),
);

/** The moment the shipped inventory was taken; relative times ("Up 4 days") are computed from it. */
export const INVENTORY_SNAPSHOT_TIME = '2026-11-22T09:45:00Z';

/** The fields of a `docker inspect` record the tools read; the record holds many more. */
export interface InspectRecord {
  Id: string;
  Name: string;
  Created: string;
  Path: string;
  Args: string[];
  RestartCount: number;
  State: {
    Status: string;
    ExitCode: number;
    StartedAt: string;
    FinishedAt: string;
    OOMKilled: boolean;
    Health?: { Status: string };
  };
  Config: { Image: string };
  NetworkSettings: { Ports: Record<string, { HostIp: string; HostPort: string }[] | null> };
  [field: string]: unknown;
}

/** A container inventory shipped as data, as a container runtime would report it. */
export interface ContainerInventory {
  /** Every container, as `docker inspect` records. */
  readonly containers: readonly InspectRecord[];
  /** The container with this name (with or without the leading `/`) or id prefix, if any. */
  find(nameOrId: string): InspectRecord | undefined;
  /** The whole log of a container, oldest line first. */
  logs(container: InspectRecord): string;
}

/**
 * Loads an inventory from `dataDir`: `inspect.json` (an array of `docker inspect` records) and
 * `logs/<name>.log`. Throws a `ContextError` (`invalid_option`) when `inspect.json` is missing or
 * malformed.
 */
export function loadContainerInventory(
  dataDir: string = DEFAULT_CONTAINER_DATA_DIR,
): ContainerInventory {
  const file = join(dataDir, 'inspect.json');
  let containers: InspectRecord[];
  try {
    containers = JSON.parse(readFileSync(file, 'utf8')) as InspectRecord[];
  } catch (cause) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: 'example-worker',
      message: `Cannot read the container inventory ${file}: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    });
  }
  if (!Array.isArray(containers)) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: 'example-worker',
      message: `The container inventory ${file} must hold an array of inspect records.`,
    });
  }
  return Object.freeze({
    containers: Object.freeze(containers),
    find(nameOrId: string): InspectRecord | undefined {
      const wanted = nameOrId.replace(/^\//, '').toLowerCase();
      return (
        containers.find((container) => container.Name.replace(/^\//, '') === wanted) ??
        (wanted.length >= 6
          ? containers.find((container) => container.Id.startsWith(wanted))
          : undefined)
      );
    },
    logs(container: InspectRecord): string {
      try {
        return readFileSync(
          join(dataDir, 'logs', `${container.Name.replace(/^\//, '')}.log`),
          'utf8',
        );
      } catch {
        return '';
      }
    },
  });
}
