import type { ContainerInventory } from './container-inventory.js';
import { invalidToolInput, stringInput, type Tool } from './tool.js';

/** `inspect_container`: the full `docker inspect` JSON of one container. */
export function createInspectContainerTool(inventory: ContainerInventory): Tool {
  return Object.freeze({
    definition: {
      name: 'inspect_container',
      description:
        'Return the full `docker inspect` JSON of one container: state, exit code, OOM kill, health checks, ' +
        'restart count, limits, environment, mounts and network settings.',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string', description: 'Container name or id prefix.' } },
        required: ['name'],
        additionalProperties: false,
      },
    },
    async run(input: Readonly<Record<string, unknown>>): Promise<string> {
      const name = stringInput('inspect_container', input, 'name');
      const container = inventory.find(name);
      if (container === undefined)
        throw invalidToolInput('inspect_container', `no such container: ${name}`);
      return JSON.stringify([container], null, 2);
    },
  });
}
