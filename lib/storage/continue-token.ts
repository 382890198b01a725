// Continue tokens in Kubernetes' format: raw base64url of {"v":"meta.k8s.io/v1","rv":N,"start":"<key after prefix>\u0000"}.
import { badRequest } from '../apimachinery/errors';

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

function invalidToken(detail: string): Error {
  return badRequest(`invalid continue token: ${detail}`);
}

/** Decodes a token for a list under `prefix`; malformed tokens are 400 BadRequest with Kubernetes' texts. */
export function decodeContinueToken(token: string, prefix: string): ContinuePosition {
  if (!/^[A-Za-z0-9_-]*$/.test(token) || token.length % 4 === 1) throw invalidToken(`${INVALID_KEY}: illegal base64 data at input byte ${firstBadBase64Byte(token)}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (err) {
    throw invalidToken(`${INVALID_KEY}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const fields = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  if (fields['v'] !== TOKEN_VERSION) throw invalidToken(`${INVALID_KEY}: server does not recognize this encoded version ${String(fields['v'] ?? '')}`);
  const revision = typeof fields['rv'] === 'number' ? fields['rv'] : 0;
  if (revision === 0 || !Number.isInteger(revision)) throw invalidToken(`${INVALID_KEY}: incorrect encoded start resourceVersion (version ${TOKEN_VERSION})`);
  const start = typeof fields['start'] === 'string' ? fields['start'] : '';
  if (start === '') throw invalidToken(`${INVALID_KEY}: encoded start key empty (version ${TOKEN_VERSION})`);
  // Clean the key like path.Clean so a token cannot walk out of the collection's prefix.
  const cleaned = start.split('/').filter((p) => p !== '..' && p !== '.').join('/').replace(/^\/+/, '');
  return { revision, startKey: prefix + cleaned };
}

function firstBadBase64Byte(token: string): number {
  const i = token.search(/[^A-Za-z0-9_-]/);
  return i >= 0 ? i : token.length - 1;
}
