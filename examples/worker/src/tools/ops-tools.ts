import type { ToolOutputStore } from '@ctxkit/context-core';
import { DEFAULT_CONTAINER_DATA_DIR, loadContainerInventory } from './container-inventory.js';
import { createGetContainerLogsTool } from './get-container-logs.js';
import { createGetToolOutputTool } from './get-tool-output.js';
import { createInspectContainerTool } from './inspect-container.js';
import { createListContainersTool } from './list-containers.js';
import { createListFilesTool } from './list-files.js';
import { createReadFileTool } from './read-file.js';
import { createToolRegistry, type ToolRegistry } from './tool-registry.js';

/** Options of {@link createOpsTools}. */
export interface OpsToolsOptions {
  /** The directory the file tools may read. */
  sandboxDir: string;
  /** The container inventory (`inspect.json` and `logs/`); default the shipped one. */
  containerDataDir?: string;
  /** Where offloaded outputs are kept; when given, `get_tool_output` reads them back. */
  toolOutputs?: ToolOutputStore;
}

/**
 * The worker's tools: `list_files` and `read_file` over the sandbox, `list_containers`,
 * `inspect_container` and `get_container_logs` over the container inventory, and
 * `get_tool_output` when offloaded outputs are kept in `toolOutputs`.
 */
export function createOpsTools(options: OpsToolsOptions): ToolRegistry {
  const inventory = loadContainerInventory(options.containerDataDir ?? DEFAULT_CONTAINER_DATA_DIR);
  return createToolRegistry([
    createListContainersTool(inventory),
    createInspectContainerTool(inventory),
    createGetContainerLogsTool(inventory),
    createListFilesTool({ root: options.sandboxDir }),
    createReadFileTool({ root: options.sandboxDir }),
    ...(options.toolOutputs ? [createGetToolOutputTool(options.toolOutputs)] : []),
  ]);
}
