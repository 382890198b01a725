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

/** `299 - "<text>"` as Kubernetes formats warning header values. */
/** Appends a `Warning` header (admission webhooks' warnings, before the response is written). */
export function addWarningHeader(res: ServerResponse, text: string): void {
  if (res.headersSent) return;
  res.setHeader('Warning', [...[res.getHeader('Warning') ?? []].flat().map(String), warningHeaderValue(text)]);
}

export function warningHeaderValue(text: string): string {
  return `299 - "${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
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
  if (options.warnings && options.warnings.length > 0)
    headers['Warning'] = [
      ...[res.getHeader('Warning') ?? []].flat().map(String),
      ...options.warnings.map(warningHeaderValue),
    ];
  res.writeHead(code, headers);
  res.end(body);
}
