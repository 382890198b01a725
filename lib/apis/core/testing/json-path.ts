// Test helpers: read and write decoded JSON by dotted path (`spec.template.spec.containers.0.name`).
import { isPlainObject } from '../../../apimachinery/meta/types';

function step(container: unknown, key: string): unknown {
  if (Array.isArray(container)) return container[Number(key)];
  return isPlainObject(container) ? container[key] : undefined;
}

export function getPath(obj: unknown, path: string): unknown {
  return path.split('.').reduce(step, obj);
}

/** Sets the value at `path`, creating objects on the way; `undefined` deletes the member. */
export function setPath(obj: unknown, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop() ?? '';
  let node = obj;
  for (const key of keys) {
    let next = step(node, key);
    if (next === undefined || next === null) {
      next = {};
      if (Array.isArray(node)) node[Number(key)] = next;
      else if (isPlainObject(node)) node[key] = next;
    }
    node = next;
  }
  if (Array.isArray(node)) {
    if (value === undefined) node.splice(Number(last), 1);
    else node[Number(last)] = value;
  } else if (isPlainObject(node)) {
    if (value === undefined) delete node[last];
    else node[last] = value;
  }
}
