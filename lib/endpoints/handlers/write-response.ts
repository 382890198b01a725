// Writes a response body once, in the negotiated representation, with Warning headers.
import type { ServerResponse } from 'node:http';
import { isProtobuf, type Negotiated } from '../negotiation';
import type { ApiObject } from '../../apimachinery/meta/types';
import { servedJson } from '../../apimachinery/serializers/served-json';
import { encodeProtobufResponse } from '../../apimachinery/serializers/protobuf';
import { jsonToYaml } from '../../apimachinery/json/json-to-yaml';

export interface ResponseOptions {
  pretty: boolean;
  warnings?: readonly string[];
}

/** Appends a `Warning` header (admission webhooks' warnings, before the response is written). */
export function addWarningHeader(res: ServerResponse, text: string): void {
  if (res.headersSent) return;
  const value = warningHeaderValue(text);
  if (value === undefined) return;
  res.setHeader('Warning', [...[res.getHeader('Warning') ?? []].flat().map(String), value]);
}

// Go's unicode.IsControl (C0, DEL and the C1 controls), and a UTF-16 surrogate without its pair (not UTF-8).
const NOT_A_WARNING_TEXT =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * `299 - "<text>"` as Kubernetes formats warning header values, or undefined for a text Kubernetes' warning
 * recorder drops (net.NewWarningHeader refuses control characters, a newline included, and invalid UTF-8). The
 * value carries the text's UTF-8 bytes, one per character, as Node writes header strings in latin1.
 */
export function warningHeaderValue(text: string): string | undefined {
  if (NOT_A_WARNING_TEXT.test(text)) return undefined;
  const quoted = `299 - "${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return /^[\x20-\x7e]*$/.test(quoted) ? quoted : Buffer.from(quoted, 'utf8').toString('latin1');
}

/**
 * The body to end a response with: Node sends the head in the same write as a string body and in the body's
 * encoding, so a head carrying UTF-8 bytes (a warning about a non-ASCII field name) goes out in latin1 only ahead of
 * a Buffer; an ASCII head, the usual one, keeps the string.
 */
export function bodyForHead(
  res: ServerResponse,
  headWarnings: readonly string[] | undefined,
  body: string | Buffer,
): string | Buffer {
  if (typeof body !== 'string') return body;
  const set = res.getHeader('Warning');
  const values = [...(headWarnings ?? []), ...[set ?? []].flat().map(String)];
  return values.some((v) => !/^[\x20-\x7e]*$/.test(v)) ? Buffer.from(body) : body;
}

/** The header values of these warnings, without those Kubernetes would drop. */
export function warningHeaderValues(texts: readonly string[]): string[] {
  const values: string[] = [];
  for (const text of texts) {
    const value = warningHeaderValue(text);
    if (value !== undefined) values.push(value);
  }
  return values;
}

/**
 * The body in the negotiated representation. Protobuf is encoded from the parsed object (no pretty form); a value
 * without a kind (version info, path lists) stays JSON, as Kubernetes writes those; a kind without a protobuf
 * message is a 406.
 */
export function encodeBody(
  value: unknown,
  negotiated: Negotiated,
  pretty: boolean,
): { body: string | Buffer; contentType: string } {
  if (isProtobuf(negotiated.mediaType)) {
    const body = encodeProtobufResponse(value);
    if (body) return { body, contentType: negotiated.mediaType };
  }
  if (negotiated.mediaType === 'application/yaml') return { body: jsonToYaml(value), contentType: 'application/yaml' };
  // json.MarshalIndent, which (unlike the encoder of the compact form) ends without a newline.
  if (pretty) return { body: JSON.stringify(value, null, 2), contentType: 'application/json' };
  const reused = typeof value === 'object' && value !== null ? servedJson(value as ApiObject) : undefined;
  return { body: `${reused ?? JSON.stringify(value)}\n`, contentType: 'application/json' };
}

/** Writes JSON text that was assembled from stored bytes (lists); YAML and pretty output go through writeResponse. */
export function writeJsonText(res: ServerResponse, code: number, json: string): void {
  const body = `${json}\n`;
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

const NEWLINE = Buffer.from('\n');

/**
 * Writes JSON given as UTF-8 parts (an object's kept bytes, see servedJsonParts) and the newline Kubernetes' encoder
 * ends with: the socket is corked meanwhile, so headers and parts leave in one write.
 */
export function writeJsonParts(res: ServerResponse, code: number, parts: readonly Buffer[]): void {
  let length = NEWLINE.length;
  for (const part of parts) length += part.length;
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': length });
  res.cork();
  for (const part of parts) res.write(part);
  res.end(NEWLINE);
  res.uncork();
}

export function writeResponse(
  res: ServerResponse,
  code: number,
  value: unknown,
  negotiated: Negotiated,
  options: ResponseOptions,
): void {
  const { body, contentType } = encodeBody(value, negotiated, options.pretty);
  const headers: Record<string, string | string[] | number> = {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
  };
  // Warnings set earlier in the chain (a deprecated version's) come first.
  let warnings: string[] | undefined;
  if (options.warnings && options.warnings.length > 0) {
    warnings = [...[res.getHeader('Warning') ?? []].flat().map(String), ...warningHeaderValues(options.warnings)];
    headers['Warning'] = warnings;
  }
  const sent = bodyForHead(res, warnings, body);
  res.writeHead(code, headers);
  res.end(sent);
}
