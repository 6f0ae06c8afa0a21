import type { StructuralSchema } from './structural-schema.js';

/** The generated schema's compact form: subtrees that repeat (the pod spec of every component) stored once. */
export interface SharedSchema {
  /** The root schema, where `{ "$shared": i }` stands for `shared[i]`. */
  root: unknown;
  /** The repeated subtrees, which may refer to each other the same way. */
  shared: unknown[];
}

/**
 * Rebuilds the schema from its compact form. A repeated subtree becomes one object reached from every
 * place it occurs, so the result is as large in memory as the compact form, not the CRD.
 */
export function expandShared(compact: SharedSchema): StructuralSchema {
  const done = new Map<number, unknown>();
  const expand = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      return node.map(expand);
    }
    if (typeof node !== 'object' || node === null) {
      return node;
    }
    const ref = (node as { $shared?: unknown }).$shared;
    if (typeof ref === 'number') {
      let hit = done.get(ref);
      if (hit === undefined) {
        hit = expand(compact.shared[ref]);
        done.set(ref, hit);
      }
      return hit;
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, expand(v)]));
  };
  return expand(compact.root) as StructuralSchema;
}
