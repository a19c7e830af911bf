import type { ContainerInventory } from './container-inventory.js';
import { integerInput, invalidToolInput, stringInput, type Tool } from './tool.js';

/** `get_container_logs`: the last lines of a container's log, like `docker logs --tail`. */
export function createGetContainerLogsTool(inventory: ContainerInventory): Tool {
  return Object.freeze({
    definition: {
      name: 'get_container_logs',
      description:
        'Return the last lines of a container log, like `docker logs --tail <tail> <name>`.',
      parameters: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'Container name or id prefix.' },
          tail: {
            type: 'integer',
            minimum: 1,
            maximum: 2000,
            description: 'Lines from the end; default 200.',
          },
        },
        required: ['name'],
        additionalProperties: false,
      },
    },
    async run(input: Readonly<Record<string, unknown>>): Promise<string> {
      const name = stringInput('get_container_logs', input, 'name');
      const tail = integerInput('get_container_logs', input, 'tail', 200, 1, 2000);
      const container = inventory.find(name);
      if (container === undefined)
        throw invalidToolInput('get_container_logs', `no such container: ${name}`);
      const lines = inventory.logs(container).replace(/\n$/, '').split('\n');
      return lines.slice(-tail).join('\n');
    },
  });
}
