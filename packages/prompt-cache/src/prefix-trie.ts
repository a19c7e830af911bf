import type { CacheTtl } from '@ctxkit/context-core';
import type { PromptSegment } from './cache-request.js';

/** One prefix of the prompts seen so far: the segments from the start up to this node. */
export interface PrefixNode {
  /** The prefixes one segment longer, by the next segment's key. */
  readonly children: Map<string, PrefixNode>;
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
  private readonly root: PrefixNode = { children: new Map() };
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
      let child = node.children.get(segment.key);
      if (child === undefined) {
        child = { children: new Map() };
        node.children.set(segment.key, child);
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

/** Nodes created before the first pruning. */
const PRUNE_AFTER = 4096;

/**
 * Removes every node below `root` whose whole subtree cannot be read at `at`; returns how many
 * nodes are left below `root`. Iterative, children before parents: a prompt may be many
 * thousands of segments deep.
 */
function keepLive(root: PrefixNode, at: number, retentionMs: number): number {
  const order: { node: PrefixNode; parent: PrefixNode; key: string }[] = [];
  const stack: PrefixNode[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    for (const [key, child] of node.children) {
      order.push({ node: child, parent: node, key });
      stack.push(child);
    }
  }
  const below = new Map<PrefixNode, number>();
  for (let index = order.length - 1; index >= 0; index -= 1) {
    const { node, parent, key } = order[index] as (typeof order)[number];
    const under = below.get(node) ?? 0;
    const used = node.lastUsedAt !== undefined && at - node.lastUsedAt <= retentionMs;
    const entry = node.entry !== undefined && node.entry.expiresAt >= at;
    if (under === 0 && !used && !entry) parent.children.delete(key);
    else below.set(parent, (below.get(parent) ?? 0) + under + 1);
  }
  return below.get(root) ?? 0;
}
