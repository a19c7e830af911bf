import type { CacheTtl } from '@ctxkit/context-core';
import type { PromptSegment } from './cache-request.js';

/** One prefix of the prompts seen so far: the segments from the start up to this node. */
export interface PrefixNode {
  /**
   * The prefixes one segment longer, by the next segment's key. Most prefixes have one at most
   * (a conversation's prompts extend each other), so a single one is held without a map.
   */
  children: PrefixNode[] | undefined;
  /** The key of each node of `children`, at the same index. */
  keys: string[] | undefined;
  /** The children by key, once there are more than {@link SCAN_LIMIT} of them. */
  byKey: Map<string, PrefixNode> | undefined;
  /** When a request last sent this prefix (prefix caching); undefined when never cached. */
  lastUsedAt?: number;
  /** The Anthropic cache entry written for this prefix, if any (breakpoint caching). */
  entry?: { expiresAt: number; ttl: CacheTtl };
}

/**
 * A tree of the prompt prefixes a simulation has seen, one node per prefix. Prefixes whose cache
 * entries have all expired are pruned now and then (see {@link PrefixTrie.pruneExpired}), so a
 * long conversation keeps only what can still be read.
 */
export class PrefixTrie {
  private readonly root: PrefixNode = newNode();
  /** Nodes created since the last pruning, and nodes left by it. */
  private created = 0;
  private kept = 0;

  /**
   * @param pruneAfter - nodes created before the first pruning
   */
  constructor(private readonly pruneAfter: number = PRUNE_AFTER) {}

  /** How many nodes the tree holds at most: those left by the last pruning and those created since. */
  get size(): number {
    return this.kept + this.created;
  }

  /**
   * The node of every prefix of `segments`, shortest first, created where new.
   *
   * @param segments - a request's prompt
   * @returns one node per segment: `nodes[i]` stands for segments 0 to i
   */
  path(segments: readonly PromptSegment[]): PrefixNode[] {
    const nodes: PrefixNode[] = [];
    let node = this.root;
    for (const segment of segments) {
      let child = childOf(node, segment.key);
      if (child === undefined) {
        child = newNode();
        addChild(node, segment.key, child);
        this.created += 1;
      }
      nodes.push(child);
      node = child;
    }
    return nodes;
  }

  /**
   * Drops every prefix that can no longer be read at `at` or later, along with all longer ones
   * (none of which can be read either): a prefix last used more than `retentionMs` before `at`
   * and with no Anthropic entry live at `at`. A dropped prefix sent again is simply new, as it
   * would be anyway, so no simulated result changes. Runs only once as many nodes were created
   * since the last pruning as it left (and at least `pruneAfter`), so its cost per node
   * created is constant.
   *
   * @param at - the time of the request just added; later requests come no earlier
   * @param retentionMs - how long a prefix used stays readable (0 when only entries count)
   */
  pruneExpired(at: number, retentionMs: number): void {
    if (this.created < Math.max(this.pruneAfter, this.kept)) return;
    this.kept = keepLive(this.root, at, retentionMs);
    this.created = 0;
  }
}

/** Children searched one by one; past this many a node keeps a map of them too. */
const SCAN_LIMIT = 8;

function newNode(): PrefixNode {
  return { children: undefined, keys: undefined, byKey: undefined };
}

/**
 * The child of `node` for `key`. Nearly every node has one child, and most that branch (a prompt
 * changed at that message) a handful: those are searched one by one, the others by map.
 */
function childOf(node: PrefixNode, key: string): PrefixNode | undefined {
  if (node.byKey !== undefined) return node.byKey.get(key);
  const { keys, children } = node;
  if (keys === undefined || children === undefined) return undefined;
  for (let index = keys.length - 1; index >= 0; index -= 1) {
    if (keys[index] === key) return children[index];
  }
  return undefined;
}

/** Sets `node`'s children to those given, keeping its map in step. */
function setChildren(node: PrefixNode, keys: string[], children: PrefixNode[]): void {
  node.keys = keys.length === 0 ? undefined : keys;
  node.children = children.length === 0 ? undefined : children;
  node.byKey =
    keys.length <= SCAN_LIMIT
      ? undefined
      : new Map(keys.map((key, index) => [key, children[index] as PrefixNode]));
}

function addChild(node: PrefixNode, key: string, child: PrefixNode): void {
  const keys = node.keys ?? [];
  const children = node.children ?? [];
  keys.push(key);
  children.push(child);
  node.keys = keys;
  node.children = children;
  if (node.byKey !== undefined) node.byKey.set(key, child);
  else if (keys.length > SCAN_LIMIT) setChildren(node, keys, children);
}

/** Nodes created before the first pruning. */
const PRUNE_AFTER = 4096;

/**
 * Removes every node below `root` whose whole subtree cannot be read at `at`; returns how many
 * nodes are left below `root`. Iterative, children before parents: a prompt may be many
 * thousands of segments deep.
 */
function keepLive(root: PrefixNode, at: number, retentionMs: number): number {
  const order: { node: PrefixNode; parent: PrefixNode }[] = [];
  const stack: PrefixNode[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    for (const child of node.children ?? []) {
      order.push({ node: child, parent: node });
      stack.push(child);
    }
  }
  const below = new Map<PrefixNode, number>();
  const dead = new Set<PrefixNode>();
  for (let index = order.length - 1; index >= 0; index -= 1) {
    const { node, parent } = order[index] as (typeof order)[number];
    const under = below.get(node) ?? 0;
    const used = node.lastUsedAt !== undefined && at - node.lastUsedAt <= retentionMs;
    const entry = node.entry !== undefined && node.entry.expiresAt >= at;
    if (under === 0 && !used && !entry) dead.add(node);
    else below.set(parent, (below.get(parent) ?? 0) + under + 1);
  }
  // Each parent's children, less the dead ones, in their order: each parent once.
  for (const parent of new Set(order.map((item) => item.parent))) {
    const { children, keys } = parent;
    if (children === undefined || keys === undefined || !children.some((child) => dead.has(child)))
      continue;
    const kept = children.flatMap((child, index) => (dead.has(child) ? [] : [index]));
    setChildren(
      parent,
      kept.map((index) => keys[index] as string),
      kept.map((index) => children[index] as PrefixNode),
    );
  }
  return below.get(root) ?? 0;
}
