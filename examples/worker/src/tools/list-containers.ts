import {
  type ContainerInventory,
  INVENTORY_SNAPSHOT_TIME,
  type InspectRecord,
} from './container-inventory.js';
import { booleanInput, type Tool } from './tool.js';

/** `list_containers`: the inventory as a `docker ps` table (running ones, or all with `all: true`). */
export function createListContainersTool(inventory: ContainerInventory): Tool {
  return Object.freeze({
    definition: {
      name: 'list_containers',
      description:
        'List containers like `docker ps`: id, image, command, age, status (with health and exit code) and name. ' +
        'Running and restarting containers only, unless all is true.',
      parameters: {
        type: 'object',
        properties: { all: { type: 'boolean', description: 'Include stopped containers.' } },
        additionalProperties: false,
      },
    },
    async run(input: Readonly<Record<string, unknown>>): Promise<string> {
      const all = booleanInput('list_containers', input, 'all', false);
      const rows = inventory.containers
        .filter((container) => all || container.State.Status !== 'exited')
        .map((container) => [
          container.Id.slice(0, 12),
          container.Config.Image,
          quoteCommand(container),
          `${ago(container.Created)} ago`,
          status(container),
          ports(container),
          container.Name.replace(/^\//, ''),
        ]);
      return table(
        ['CONTAINER ID', 'IMAGE', 'COMMAND', 'CREATED', 'STATUS', 'PORTS', 'NAMES'],
        rows,
      );
    },
  });
}

// --- internal helpers ---

const SNAPSHOT = Date.parse(INVENTORY_SNAPSHOT_TIME);

function quoteCommand(container: InspectRecord): string {
  const command = [container.Path, ...container.Args].join(' ');
  return JSON.stringify(command.length > 20 ? `${command.slice(0, 19)}…` : command);
}

function ago(time: string): string {
  const seconds = Math.max(0, Math.round((SNAPSHOT - Date.parse(time)) / 1000));
  if (seconds < 60) return plural(seconds, 'second');
  if (seconds < 3600) return plural(Math.round(seconds / 60), 'minute');
  if (seconds < 2 * 86400) return plural(Math.round(seconds / 3600), 'hour');
  return plural(Math.round(seconds / 86400), 'day');
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

function status(container: InspectRecord): string {
  const state = container.State;
  if (state.Status === 'restarting')
    return `Restarting (${state.ExitCode}) ${ago(state.FinishedAt)} ago`;
  if (state.Status === 'exited') return `Exited (${state.ExitCode}) ${ago(state.FinishedAt)} ago`;
  const health = state.Health ? ` (${state.Health.Status})` : '';
  return `Up ${ago(state.StartedAt)}${health}`;
}

function ports(container: InspectRecord): string {
  return Object.entries(container.NetworkSettings.Ports ?? {})
    .flatMap(([port, bindings]) =>
      (bindings ?? []).map(
        (binding) =>
          `${binding.HostIp === '::' ? '[::]' : binding.HostIp}:${binding.HostPort}->${port}`,
      ),
    )
    .join(', ');
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('   ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
