// RFC 6902 JSON patch with the semantics of github.com/evanphx/json-patch v4.12.0, the library kube-apiserver 1.26 applies.
//
// Why not fast-json-patch: kube-apiserver discards the library's error text (every failure is a 422 with a
// fixed message), so texts do not matter, but which operations succeed does, and v4.12.0 differs from the RFC
// and from fast-json-patch: `replace` of a missing object key adds it, negative array indices count from the
// end, `add` without `value` adds null, `test` of a missing key passes with `value: null`, `copy` from a missing
// key copies null, and copies are capped in total size. Reproducing those in a small module is simpler than
// wrapping a library that rejects them.
import { isPlainObject } from '../../apimachinery/meta/types';
import { isDeepStrictEqual } from 'node:util';
import { setField } from '../../apimachinery/strategic-merge-patch';

/** apiserver's JSONPatchMaxCopyBytes: the total size `copy` operations may add to the document. */
const MAX_ACCUMULATED_COPY_BYTES = 3 * 1024 * 1024;

/** Any failure of an operation; kube-apiserver answers it with 422 and a fixed message. */
export class JsonPatchError extends Error {
  override name = 'JsonPatchError';
}

type Container = Record<string, unknown> | unknown[];
type Operation = Record<string, unknown>;

const fail = (message: string): never => {
  throw new JsonPatchError(message);
};

/** strconv.Atoi: optional sign, decimal digits. */
function arrayIndex(key: string): number {
  if (!/^[+-]?\d+$/.test(key)) fail(`strconv.Atoi: parsing "${key}": invalid syntax`);
  return Number(key);
}

/** An index into `list`, negative ones counting from the end (`size` is len+1 for insertions). */
function resolveIndex(key: string, size: number): number {
  const idx = arrayIndex(key);
  if (idx >= size || idx < -size) fail(`Unable to access invalid index: ${idx}`);
  return idx < 0 ? idx + size : idx;
}

function get(con: Container, key: string): unknown {
  if (!Array.isArray(con)) return Object.hasOwn(con, key) ? con[key] : undefined;
  return con[resolveIndex(key, con.length)];
}

function add(con: Container, key: string, value: unknown): void {
  if (!Array.isArray(con)) return setField(con, key, value);
  if (key === '-') {
    con.push(value);
    return;
  }
  con.splice(resolveIndex(key, con.length + 1), 0, value);
}

function remove(con: Container, key: string): void {
  if (!Array.isArray(con)) {
    if (!Object.hasOwn(con, key)) fail(`Unable to remove nonexistent key: ${key}: missing value`);
    delete con[key];
    return;
  }
  con.splice(resolveIndex(key, con.length), 1);
}

/** Only replace uses set: on objects it adds a missing key; on lists the index must exist. */
function set(con: Container, key: string, value: unknown): void {
  if (Array.isArray(con)) con[resolveIndex(key, con.length)] = value;
  else setField(con, key, value);
}

const decodeToken = (token: string): string => token.replace(/~1|~0/g, (m) => (m === '~1' ? '/' : '~'));

/** The container holding the last token of `path`, and that token (evanphx findObject: the first token is skipped). */
function findObject(doc: Container, path: string): { con: Container; key: string } | undefined {
  const tokens = path.split('/');
  if (tokens.length < 2) return undefined;
  let con: Container = doc;
  for (const token of tokens.slice(1, -1)) {
    let next: unknown;
    try {
      next = get(con, decodeToken(token));
    } catch {
      return undefined;
    }
    if (!Array.isArray(next) && !isPlainObject(next)) return undefined;
    con = next;
  }
  return { con, key: decodeToken(tokens[tokens.length - 1] ?? '') };
}

function stringField(op: Operation, name: 'path' | 'from'): string {
  const value = op[name];
  if (value === undefined || value === null) return fail(`operation missing ${name} field`);
  if (typeof value !== 'string') return fail(`json: cannot unmarshal into Go value of type string`);
  return value;
}

function located(doc: Container, op: Operation, name: 'path' | 'from'): { con: Container; key: string } {
  const path = stringField(op, name);
  return (
    findObject(doc, path) ??
    fail(`${op['op']} operation does not apply: doc is missing ${name === 'from' ? 'from ' : ''}path: ${path}`)
  );
}

/** `value` of an operation; a missing one is Go's nil node, which encodes as null. */
const valueOf = (op: Operation): unknown => op['value'] ?? null;

/** `test`: a missing or null value only matches `value: null`; an operation without `value` never passes. */
function test(doc: Container, op: Operation): void {
  const path = stringField(op, 'path');
  let actual: unknown = doc;
  if (path !== '') {
    const { con, key } = located(doc, op, 'path');
    actual = get(con, key);
  }
  const expected = op['value'];
  const passed =
    Object.hasOwn(op, 'value') && ((actual ?? null) === null ? expected === null : isDeepStrictEqual(actual, expected));
  if (!passed) fail(`testing value ${path} failed: test failed`);
}

/** Applies `ops` to a copy of `doc`; the result may be any JSON value (a root `replace`). Throws JsonPatchError. */
export function applyJsonPatch(doc: Record<string, unknown>, ops: readonly unknown[]): unknown {
  let root: Container = structuredClone(doc);
  let copiedBytes = 0;
  for (const raw of ops) {
    const op: Operation = isPlainObject(raw) ? structuredClone(raw) : {};
    switch (op['op']) {
      case 'add': {
        const { con, key } = located(root, op, 'path');
        add(con, key, valueOf(op));
        break;
      }
      case 'remove': {
        const { con, key } = located(root, op, 'path');
        remove(con, key);
        break;
      }
      case 'replace': {
        if (stringField(op, 'path') === '') {
          const value = op['value'];
          // null makes an empty document; a scalar is silently ignored (v4.12.0 wraps a nil error there).
          if (Array.isArray(value) || isPlainObject(value)) root = value;
          else if (value === null) root = {};
          break;
        }
        const { con, key } = located(root, op, 'path');
        get(con, key);
        set(con, key, valueOf(op));
        break;
      }
      case 'move': {
        const from = located(root, op, 'from');
        const value = get(from.con, from.key);
        remove(from.con, from.key);
        const to = located(root, op, 'path');
        add(to.con, to.key, value);
        break;
      }
      case 'copy': {
        const from = located(root, op, 'from');
        const value = get(from.con, from.key) ?? null;
        const to = located(root, op, 'path');
        copiedBytes += value === null ? 0 : Buffer.byteLength(JSON.stringify(value));
        if (copiedBytes > MAX_ACCUMULATED_COPY_BYTES) {
          fail(
            `Unable to complete the copy, the accumulated size increase of copy is ${copiedBytes}, exceeding the limit ${MAX_ACCUMULATED_COPY_BYTES}`,
          );
        }
        add(to.con, to.key, structuredClone(value));
        break;
      }
      case 'test':
        test(root, op);
        break;
      default:
        fail(`Unexpected kind: ${typeof op['op'] === 'string' ? op['op'] : 'unknown'}`);
    }
  }
  return root;
}
