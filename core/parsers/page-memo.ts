/**
 * Per-page memos kept on the page's Document itself, under a symbol key, instead of in a
 * module-level WeakMap keyed by the document or its elements.
 *
 * Why: V8's young-generation collector (the scavenger) keeps the value of a WeakMap entry alive
 * while its key is young, whether the key is still reachable or not; only a full collection
 * clears it. A memo that holds the page's elements (the load's seed, the query index, the element
 * list, a card's elements) therefore kept the whole DOM of every recent page alive through each
 * scavenge, which copied it and then promoted it to the old generation: on a retail listing that
 * was ~1.7 MB promoted per parse against ~0.1 MB for a bare `parseDocument`, and the
 * collections were a fifth of the parse's CPU. A property of the document dies with the document.
 *
 * Symbol keys are invisible to `Object.keys`, `for…in` and `JSON.stringify`, so the DOM reads
 * the same to every other reader. The DOM is read-only after `loadHtml`, so a memo stays true
 * for the page's life.
 */
import type { AnyNode, Document } from 'domhandler';

/** `Document` for what is asked of pages; any node for a memo kept on a subtree's root. */
export interface PageSlot<T, D extends AnyNode = Document> {
  get(doc: D): T | undefined;
  set(doc: D, value: T): T;
}

type Slots = Record<symbol, unknown>;

/** A memo slot on documents; `name` only labels the symbol (for heap snapshots). */
export function pageSlot<T, D extends AnyNode = Document>(name: string): PageSlot<T, D> {
  const key = Symbol(name);
  return {
    get: (doc) => (doc as unknown as Slots)[key] as T | undefined,
    set: (doc, value) => ((doc as unknown as Slots)[key] = value),
  };
}

/** The document (or the detached root) a node belongs to: the top of its parent chain. */
export function rootOf(node: AnyNode): AnyNode {
  let n = node;
  while (n.parent) n = n.parent;
  return n;
}
