import type { StructuralSchema } from './structural-schema.js';

/** The generated schema's compact form: subtrees that repeat (the pod spec of every component) stored once. */
export interface SharedSchema {
  /** The root schema, where `{ "$shared": i }` stands for `shared[i]`. */
  root: unknown;
  /** The repeated subtrees, which may refer to each other the same way. */
  shared: unknown[];
}

/**
 * Rebuilds the schema from its compact form, in place: `compact` (fresh from JSON.parse, a tree) is taken over,
 * each `{ "$shared": i }` replaced by `shared[i]`, itself resolved once. A repeated subtree becomes one object
 * reached from every place it occurs, so the result is as large in memory as the compact form, not the CRD; and
 * nothing is copied (a copy of every node was most of `validate`'s time in this module).
 */
export function expandShared(compact: SharedSchema): StructuralSchema {
  const done = new Map<number, unknown>();
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        node[i] = resolve(node[i]);
      }
      return node;
    }
    if (typeof node !== 'object' || node === null) {
      return node;
    }
    const object = node as Record<string, unknown>;
    const ref = object.$shared;
    if (typeof ref === 'number') {
      let hit = done.get(ref);
      if (hit === undefined) {
        hit = resolve(compact.shared[ref]);
        done.set(ref, hit);
      }
      return hit;
    }
    for (const key of Object.keys(object)) {
      object[key] = resolve(object[key]);
    }
    return object;
  };
  return resolve(compact.root) as StructuralSchema;
}
