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

/** A tree of the prompt prefixes a simulation has seen, one node per prefix. */
export class PrefixTrie {
  private readonly root: PrefixNode = { children: new Map() };

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
      }
      nodes.push(child);
      node = child;
    }
    return nodes;
  }
}
