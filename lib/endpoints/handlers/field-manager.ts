// Which field manager a write records (fieldManager, else the User-Agent's first segment) and the field-tracking scope of its path.
import { RESET_STATUS, type FieldManagerScope } from '../../apimachinery/managed-fields';
import { schemaFor } from '../../apimachinery/schema/kinds';
import { fieldManagerScopeOf } from '../../registry/generic/internal-field-manager';
import type { ApiRequest } from './api-request';

const FIELD_MANAGER_MAX_BYTES = 128;

/** managerOrUserAgent: the `fieldManager` query, else the User-Agent up to its first `/` (printable, at most 128 bytes). */
export function managerOrUserAgent(fieldManager: string, userAgent: string | undefined): string {
  if (fieldManager !== '') return fieldManager;
  const prefix = [...((userAgent ?? '').split('/')[0] ?? '')]
    .filter((ch) => (ch.codePointAt(0) ?? 0) >= 0x20 && ch !== '\u007f')
    .join('');
  let out = '';
  for (const ch of prefix) {
    if (Buffer.byteLength(out + ch) > FIELD_MANAGER_MAX_BYTES) break;
    out += ch;
  }
  return out;
}

/** The scope of the resource (or its status/finalize subresource) this request writes. */
export function fieldManagerScope(r: ApiRequest): FieldManagerScope {
  return fieldManagerScopeOf(r.served.definition, r.info.subresource);
}

/** The Scale kind's scope, for /scale writes. */
export function scaleFieldManagerScope(): FieldManagerScope {
  return {
    schema: schemaFor('autoscaling/v1', 'Scale'),
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    subresource: 'scale',
    ignored: RESET_STATUS,
  };
}
