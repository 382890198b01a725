// Accept / Content-Type → the representation to answer in or decode from (406 and 415 with Kubernetes' texts),
// following k8s.io/apiserver's negotiation package: clauses by q and specificity, each tried against the server's
// media types in order (JSON, YAML, protobuf), the first whose parameters the endpoint allows wins.
import { notAcceptable, unsupportedMediaType } from '../apimachinery/errors';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.orch.protobuf';
/** The name client-go sends; answered with the same name. */
export const PROTOBUF_MEDIA_TYPE_ALIAS = 'application/vnd.kubernetes.protobuf';
export type ProtobufMediaType = typeof PROTOBUF_MEDIA_TYPE | typeof PROTOBUF_MEDIA_TYPE_ALIAS;
export type MediaType = 'application/json' | 'application/yaml' | ProtobufMediaType;

export interface TableRequest {
  /** The Table group as asked (`meta.orch.io` or the client alias `meta.k8s.io`), echoed in the answer. */
  group: string;
  version: 'v1' | 'v1beta1';
}

/** `as=PartialObjectMetadata` (one object) or `as=PartialObjectMetadataList` (`list`), as client-go's metadata client asks. */
export interface PartialRequest extends TableRequest {
  list: boolean;
}

export interface Negotiated {
  mediaType: MediaType;
  /** Set when the client asked for `as=Table` and it was chosen. */
  table?: TableRequest;
  /** Set when the client asked for `as=PartialObjectMetadata[List]` and it was chosen. */
  partial?: PartialRequest;
}

const TABLE_GROUPS = new Set(['meta.orch.io', 'meta.k8s.io']);
const SERVED_TYPES_TEXT = 'application/json, application/yaml, application/vnd.orch.protobuf';
const NOT_ACCEPTABLE_TEXT = `only the following media types are accepted: ${SERVED_TYPES_TEXT}`;
export const NOT_ACCEPTABLE_WATCH_TEXT =
  'only the following media types are accepted: application/json;stream=watch, application/vnd.orch.protobuf;stream=watch';
const UNSUPPORTED_BODY_TEXT = `the body of the request was in an unknown format - accepted media types include: ${SERVED_TYPES_TEXT}`;
/** The meta group version the server's generic output uses (`sv=` must name it). */
const SERVER_META_VERSION = 'v1';

/** The server's media types in negotiation order; a wildcard clause takes the first one its parameters allow. */
const SERVER_TYPES: readonly MediaType[] = ['application/json', 'application/yaml', PROTOBUF_MEDIA_TYPE];

interface AcceptClause {
  type: string;
  subType: string;
  params: Map<string, string>;
  q: number;
}

/** goautoneg's order: higher q first, then `type/sub` before `type/*` before `*\/*`; equal clauses keep their order. */
function compareClauses(a: AcceptClause, b: AcceptClause): number {
  const before = (x: AcceptClause, y: AcceptClause): boolean =>
    x.q > y.q || (x.q === y.q && ((x.type !== '*' && y.type === '*') || (x.subType !== '*' && y.subType === '*')));
  return before(a, b) ? -1 : before(b, a) ? 1 : 0;
}

function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const raw of header.split(',')) {
    const [typePart, ...paramParts] = raw.split(';');
    const full = (typePart ?? '').trim().toLowerCase();
    if (full === '') continue;
    const slash = full.indexOf('/');
    const params = new Map<string, string>();
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const key = p.slice(0, eq).trim().toLowerCase();
      const value = p
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
      if (key === 'q')
        q = Number(value) || 0; // Go's ParseFloat error leaves 0
      else params.set(key, value);
    }
    // 1.26's NegotiateMediaTypeOptions never looks at q beyond ordering: a q=0 clause still matches, last.
    clauses.push({
      type: slash < 0 ? full : full.slice(0, slash),
      subType: slash < 0 ? '*' : full.slice(slash + 1),
      params,
      q,
    });
  }
  return clauses.sort(compareClauses);
}

export function isProtobuf(mediaType: MediaType): mediaType is ProtobufMediaType {
  return mediaType === PROTOBUF_MEDIA_TYPE || mediaType === PROTOBUF_MEDIA_TYPE_ALIAS;
}

/** Server media types a clause names, in negotiation order (the protobuf alias answers as itself). */
function candidatesOf(clause: AcceptClause): readonly MediaType[] {
  if (clause.type === '*' && clause.subType === '*') return SERVER_TYPES;
  if (clause.type !== 'application') return [];
  if (clause.subType === '*') return SERVER_TYPES;
  const full = `application/${clause.subType}`;
  if (full === PROTOBUF_MEDIA_TYPE_ALIAS) return [PROTOBUF_MEDIA_TYPE_ALIAS];
  return SERVER_TYPES.filter((t) => t === full);
}

/** acceptMediaTypeOptions with a resource endpoint's restrictions; undefined when the clause's parameters rule it out. */
function acceptCandidate(
  mediaType: MediaType,
  params: Map<string, string>,
  allowTable: boolean,
): Negotiated | undefined {
  const stream = params.get('stream') ?? '';
  // Only JSON and protobuf can stream, and `watch` is the only stream schema.
  if (stream !== '' && (stream !== 'watch' || mediaType === 'application/yaml')) return undefined;
  const serverVersion = params.get('sv') ?? '';
  if (serverVersion !== '' && serverVersion !== SERVER_META_VERSION) return undefined;
  if (!params.has('as') && !params.has('g') && !params.has('v')) return { mediaType };
  // A conversion target (meta v1/v1beta1, on get/list/watch of resources): Table in JSON or YAML, or
  // PartialObjectMetadata[List] in any format (the protobuf catalog holds the meta v1 messages only); any other
  // target fails the clause so a later one can win.
  const group = params.get('g') ?? '';
  const version = params.get('v') ?? '';
  if (!allowTable || !TABLE_GROUPS.has(group) || (version !== 'v1' && version !== 'v1beta1')) return undefined;
  const as = params.get('as');
  if (as === 'Table') return isProtobuf(mediaType) ? undefined : { mediaType, table: { group, version } };
  if (as !== 'PartialObjectMetadata' && as !== 'PartialObjectMetadataList') return undefined;
  if (isProtobuf(mediaType) && version !== 'v1') return undefined;
  return { mediaType, partial: { group, version, list: as === 'PartialObjectMetadataList' } };
}

/**
 * Chooses the response representation. `allowTable` (Table and PartialObjectMetadata targets) is true for
 * get/list/watch of resources; protobuf is offered everywhere (a value without a protobuf message is still written
 * as JSON by the response writer).
 */
export function negotiateResponse(accept: string | undefined, allowTable: boolean): Negotiated {
  if (accept === undefined || accept.trim() === '') return { mediaType: 'application/json' };
  for (const clause of parseAccept(accept)) {
    for (const mediaType of candidatesOf(clause)) {
      const negotiated = acceptCandidate(mediaType, clause.params, allowTable);
      if (negotiated) return negotiated;
    }
  }
  throw notAcceptable(NOT_ACCEPTABLE_TEXT);
}

/**
 * A watch's representation: negotiated as for a list (same 406), then refused with the stream types' 406 when the
 * choice cannot stream (YAML), as ListResource and serveWatch do one after the other.
 */
export function negotiateWatch(accept: string | undefined, allowTable: boolean): Negotiated {
  const negotiated = negotiateResponse(accept, allowTable);
  if (negotiated.mediaType === 'application/yaml') throw notAcceptable(NOT_ACCEPTABLE_WATCH_TEXT);
  return negotiated;
}

/** Content-Type of a watch stream: plain JSON, or the protobuf type with `;stream=watch` (length-prefixed frames). */
export function watchContentType(negotiated: Negotiated): string {
  return isProtobuf(negotiated.mediaType) ? `${negotiated.mediaType};stream=watch` : 'application/json';
}

export type BodyFormat = 'json' | 'yaml' | 'protobuf';

const PROTOBUF_TYPES: ReadonlySet<string> = new Set([PROTOBUF_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE_ALIAS]);

// Go's mime token characters: printable ASCII other than space and the tspecials.
const MIME_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;
const MIME_QUOTED_STRING = /^"(?:[^"\\]|\\.)*"/;

/**
 * Whether Go's mime.ParseMediaType accepts the value: `type[/subtype]`, then `; name=value` parameters (token or
 * quoted string values, no repeated names; trailing semicolons allowed). Kubernetes answers 415 to a body whose
 * Content-Type it rejects.
 */
function goParsesMediaType(value: string): boolean {
  const semicolon = value.indexOf(';');
  const base = (semicolon < 0 ? value : value.slice(0, semicolon)).trim();
  const type = MIME_TOKEN.exec(base)?.[0];
  if (type === undefined) return false;
  if (type.length < base.length) {
    const rest = base.slice(type.length);
    const subtype = rest.startsWith('/') ? MIME_TOKEN.exec(rest.slice(1))?.[0] : undefined;
    if (subtype === undefined || subtype.length !== rest.length - 1) return false;
  }
  if (semicolon < 0) return true;
  const names = new Set<string>();
  let params = value.slice(semicolon);
  for (;;) {
    params = params.trimStart();
    if (params === '') return true;
    if (!params.startsWith(';')) return false;
    const afterSemicolon = params.slice(1).trimStart();
    const name = MIME_TOKEN.exec(afterSemicolon)?.[0];
    if (name === undefined) return afterSemicolon.trim() === ''; // a trailing `;` is ignored
    let rest = afterSemicolon.slice(name.length).trimStart();
    if (!rest.startsWith('=')) return false;
    rest = rest.slice(1).trimStart();
    const parsedValue = MIME_TOKEN.exec(rest)?.[0] ?? MIME_QUOTED_STRING.exec(rest)?.[0];
    if (parsedValue === undefined) return false;
    const key = name.toLowerCase();
    if (names.has(key)) return false;
    names.add(key);
    params = rest.slice(parsedValue.length);
  }
}

/** Decoder for a POST/PUT/DELETE body (415 when the type is not served or Go's mime parser refuses it). */
export function bodyFormatOf(contentType: string | undefined): BodyFormat {
  if (contentType !== undefined && contentType !== '' && !goParsesMediaType(contentType))
    throw unsupportedMediaType(UNSUPPORTED_BODY_TEXT);
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === '' || type === 'application/json') return 'json';
  if (type === 'application/yaml') return 'yaml';
  if (PROTOBUF_TYPES.has(type)) return 'protobuf';
  throw unsupportedMediaType(UNSUPPORTED_BODY_TEXT);
}
