// Accept / Content-Type → the representation to answer in or decode from (406 and 415 with Kubernetes' texts).
import { notAcceptable, unsupportedMediaType } from '../apimachinery/errors';

export type MediaType = 'application/json' | 'application/yaml';

export interface TableRequest {
  /** The Table group as asked (`meta.orch.io` or the client alias `meta.k8s.io`), echoed in the answer. */
  group: string;
  version: 'v1' | 'v1beta1';
}

export interface Negotiated {
  mediaType: MediaType;
  /** Set when the client asked for `as=Table` and it was chosen. */
  table?: TableRequest;
}

const TABLE_GROUPS = new Set(['meta.orch.io', 'meta.k8s.io']);
const SERVED_TYPES_TEXT = 'application/json, application/yaml, application/vnd.orch.protobuf';
const NOT_ACCEPTABLE_TEXT = `only the following media types are accepted: ${SERVED_TYPES_TEXT}`;
export const NOT_ACCEPTABLE_WATCH_TEXT = 'only the following media types are accepted: application/json;stream=watch, application/vnd.orch.protobuf;stream=watch';
const UNSUPPORTED_BODY_TEXT = `the body of the request was in an unknown format - accepted media types include: ${SERVED_TYPES_TEXT}`;

interface AcceptClause {
  type: string;
  params: Map<string, string>;
  q: number;
}

function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const raw of header.split(',')) {
    const [typePart, ...paramParts] = raw.split(';');
    const type = (typePart ?? '').trim().toLowerCase();
    if (type === '') continue;
    const params = new Map<string, string>();
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const key = p.slice(0, eq).trim().toLowerCase();
      const value = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
      if (key === 'q') q = Number(value);
      else params.set(key, value);
    }
    if (q > 0 && !Number.isNaN(q)) clauses.push({ type, params, q });
  }
  // Stable sort by q: equal weights keep the client's order.
  return clauses.map((c, i) => ({ c, i })).sort((a, b) => b.c.q - a.c.q || a.i - b.i).map(({ c }) => c);
}

function plainType(type: string): MediaType | undefined {
  if (type === 'application/json' || type === '*/*' || type === 'application/*') return 'application/json';
  if (type === 'application/yaml') return 'application/yaml';
  return undefined;
}

/**
 * Chooses the response representation. `allowTable` is true for get/list/watch of resources;
 * other representations with `as=` (e.g. PartialObjectMetadata) are skipped so a fallback can win.
 */
export function negotiateResponse(accept: string | undefined, allowTable: boolean): Negotiated {
  if (accept === undefined || accept.trim() === '') return { mediaType: 'application/json' };
  for (const clause of parseAccept(accept)) {
    const as = clause.params.get('as');
    if (as !== undefined) {
      if (as !== 'Table' || !allowTable || clause.type !== 'application/json') continue;
      const group = clause.params.get('g') ?? '';
      const version = clause.params.get('v') ?? '';
      if (TABLE_GROUPS.has(group) && (version === 'v1' || version === 'v1beta1')) return { mediaType: 'application/json', table: { group, version } };
      continue;
    }
    const mediaType = plainType(clause.type);
    if (mediaType) return { mediaType };
  }
  throw notAcceptable(NOT_ACCEPTABLE_TEXT);
}

export type BodyFormat = 'json' | 'yaml' | 'protobuf';

const PROTOBUF_TYPES = new Set(['application/vnd.orch.protobuf', 'application/vnd.kubernetes.protobuf']);

/** Decoder for a POST/PUT body (415 when the type is not served). */
export function bodyFormatOf(contentType: string | undefined): BodyFormat {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === '' || type === 'application/json') return 'json';
  if (type === 'application/yaml') return 'yaml';
  if (PROTOBUF_TYPES.has(type)) return 'protobuf';
  throw unsupportedMediaType(UNSUPPORTED_BODY_TEXT);
}
