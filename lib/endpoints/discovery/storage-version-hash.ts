// storageVersionHash: base64 of the first 8 bytes of SHA-256 over "<group>/<version>/<Kind>" of the storage version.
import { createHash } from 'node:crypto';

export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}
