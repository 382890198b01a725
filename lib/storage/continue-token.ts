// Continue tokens in Kubernetes' format: raw base64url of {"v":"meta.k8s.io/v1","rv":N,"start":"<key after prefix>\u0000"}.
import { goKindWord, JsonSyntaxError, unmarshalTypeError } from '../apimachinery/json/go-json-errors';
import { JsonReader } from '../apimachinery/json/json-reader';
import { goQuote } from '../apimachinery/field/errors';
import { StorageError } from './storage-error';

/** The only token version; kept verbatim (not orch-branded) so mixed fleets agree on tokens. */
const TOKEN_VERSION = 'meta.k8s.io/v1';
const INVALID_KEY = 'continue key is not valid';

export interface ContinuePosition {
  /** Snapshot revision; -1 means "latest" (the inconsistent continuation offered after compaction). */
  revision: number;
  /** Full etcd key to start at (inclusive). */
  startKey: string;
}

/** Token for continuing a list after `lastKey` (a full key under `prefix`) at `revision`. */
export function encodeContinueToken(prefix: string, lastKey: string, revision: number): string {
  const start = `${lastKey.slice(prefix.length)}\u0000`;
  return Buffer.from(JSON.stringify({ v: TOKEN_VERSION, rv: revision, start })).toString('base64url');
}

/** Said as Kubernetes' DecodeContinue says it; the registry answers 400 `invalid continue token: <this>`. */
function invalidToken(detail: string): StorageError {
  return new StorageError('InvalidContinue', '', detail);
}

/** Decodes a token for a list under `prefix`; a malformed one is an InvalidContinue StorageError with Kubernetes' text. */
export function decodeContinueToken(token: string, prefix: string): ContinuePosition {
  if (!/^[A-Za-z0-9_-]*$/.test(token) || token.length % 4 === 1)
    throw invalidToken(`${INVALID_KEY}: illegal base64 data at input byte ${firstBadBase64Byte(token)}`);
  const fields = unmarshalToken(Buffer.from(token, 'base64url').toString('utf8'));
  if (fields.v !== TOKEN_VERSION)
    throw invalidToken(`${INVALID_KEY}: server does not recognize this encoded version ${goQuote(fields.v)}`);
  const revision = fields.rv;
  if (revision === 0)
    throw invalidToken(`${INVALID_KEY}: incorrect encoded start resourceVersion (version ${TOKEN_VERSION})`);
  const start = fields.start;
  if (start === '') throw invalidToken(`${INVALID_KEY}: encoded start key empty (version ${TOKEN_VERSION})`);
  // Like Kubernetes, refuse a key that path.Clean would change, so a token cannot walk out of the collection's prefix.
  const rooted = start.startsWith('/') ? start : `/${start}`;
  if (!isCleanPath(rooted)) throw invalidToken(`${INVALID_KEY}: ${start}`);
  return { revision, startKey: prefix + rooted.slice(1) };
}

/** Whether Go's path.Clean leaves a rooted path as it is: no empty, `.` or `..` element, no trailing slash. */
function isCleanPath(rooted: string): boolean {
  return (
    rooted === '/' ||
    rooted
      .slice(1)
      .split('/')
      .every((element) => element !== '' && element !== '.' && element !== '..')
  );
}

interface TokenFields {
  v: string;
  rv: number;
  start: string;
}
const FIELD_TYPES = { v: 'string', rv: 'int64', start: 'string' } as const;
type FieldName = keyof typeof FIELD_TYPES;

/**
 * json.Unmarshal into Kubernetes' continueToken struct: Go's syntax errors first, then its first type error;
 * field names match case-insensitively, null leaves a field as it is.
 */
function unmarshalToken(text: string): TokenFields {
  const fields: TokenFields = { v: '', rv: 0, start: '' };
  let typeError: string | undefined;
  try {
    const reader = new JsonReader(text);
    const kind = reader.kind();
    if (kind !== 'object') {
      reader.readAny();
      if (kind !== 'null') typeError = unmarshalTypeError(goKindWord(kind), 'storage.continueToken', undefined);
    } else {
      for (let more = reader.beginObject(); more; more = reader.nextKey()) {
        const key = reader.readKey().toLowerCase();
        const name = Object.hasOwn(FIELD_TYPES, key) ? (key as FieldName) : undefined;
        const valueKind = reader.kind();
        const context = { struct: 'continueToken', fields: [name ?? ''] };
        if (name === undefined || valueKind === 'null') reader.readAny();
        else if (name === 'rv' && valueKind === 'number') {
          const literal = reader.readNumber();
          if (isInt64(literal)) fields.rv = Number(literal);
          else typeError ??= unmarshalTypeError(`number ${literal}`, 'int64', context);
        } else if (name !== 'rv' && valueKind === 'string') fields[name] = reader.readString();
        else {
          reader.readAny();
          typeError ??= unmarshalTypeError(goKindWord(valueKind), FIELD_TYPES[name], context);
        }
      }
    }
    reader.end();
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw invalidToken(`${INVALID_KEY}: ${err.message}`);
    throw err;
  }
  if (typeError !== undefined) throw invalidToken(`${INVALID_KEY}: ${typeError}`);
  return fields;
}

function isInt64(literal: string): boolean {
  return /^-?\d+$/.test(literal) && BigInt(literal) >= -(2n ** 63n) && BigInt(literal) < 2n ** 63n;
}

function firstBadBase64Byte(token: string): number {
  const i = token.search(/[^A-Za-z0-9_-]/);
  return i >= 0 ? i : token.length - 1;
}
