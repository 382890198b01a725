// A webhook's HTTP answer read as client-go's rest.Request reads it for the webhook client (transformResponse,
// Result.Into, newUnstructuredResponseError) with the webhook codec's universal decoder: a JSON body (first byte `{`)
// or else YAML, its apiVersion/kind read first, []byte fields as Go's base64, int32 fields as Go's strconv.
import { TYPE_META_GO, goJsonKind } from '../../../apimachinery/json/go-json-errors';
import { goJsonSyntaxError } from '../../../apimachinery/json/json-reader';
import { goBase64ErrorOffset } from '../../../apimachinery/json/go-base64';
import { yamlToJson } from '../../../apimachinery/json/yaml-to-json';
import { goQuote } from '../../../apimachinery/field/errors';
import { isPlainObject } from '../../../apimachinery/meta/types';

/**
 * What a call produced: the decoded body, or the error client-go returns, with the code of its Status when it is a
 * StatusError (a non-2xx answer's) and none when it is not (transport, decoding).
 */
export type CallResult = { ok: true; body: unknown } | { ok: false; code?: number; error: string };

/** client-go's maxUnstructuredResponseTextBytes. */
const MAX_UNSTRUCTURED_TEXT_BYTES = 2048;
/** The webhook client's default content type (rest.Config ContentType). */
const DEFAULT_CONTENT_TYPE = 'application/json';

/** The body decoded as the universal deserializer decodes it, or Go's error text. */
export function decodeBody(body: Buffer): { value: unknown } | { error: string } {
  const text = body.toString('utf8');
  let value: unknown;
  if (text.trimStart().startsWith('{')) {
    const syntax = goJsonSyntaxError(body);
    if (syntax !== undefined) return { error: `couldn't get version/kind; json parse error: ${syntax}` };
    value = JSON.parse(text);
  } else {
    try {
      value = JSON.parse(yamlToJson(text, { strict: false }).json);
    } catch (err) {
      return { error: (err as Error).message };
    }
  }
  if (value !== null && !isPlainObject(value))
    return {
      error: `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(value)} into Go value of type ${TYPE_META_GO}`,
    };
  return { value: value ?? {} };
}

/** The Go decoding errors of an AdmissionReview's typed response fields that the checks after decoding rely on. */
function reviewFieldError(review: Record<string, unknown>): string | undefined {
  const response = review['response'];
  if (!isPlainObject(response)) return undefined;
  const patch = response['patch'];
  if (typeof patch === 'string') {
    const offset = goBase64ErrorOffset(patch);
    if (offset !== undefined) return `illegal base64 data at input byte ${offset}`;
  }
  const status = response['status'];
  const code = isPlainObject(status) ? status['code'] : undefined;
  if (typeof code === 'number' && !(Number.isInteger(code) && code >= -(2 ** 31) && code < 2 ** 31))
    return `json: cannot unmarshal number ${String(code)} into Go struct field Status.response.status.code of type int32`;
  return undefined;
}

const TSPECIALS = '()<>@,;:\\"/[]?=';
const isTokenChar = (c: string): boolean => c > ' ' && c < '\x7f' && !TSPECIALS.includes(c);

/** Go's mime.ParseMediaType of a Content-Type (its media part): the lower-cased type, or Go's error. */
function mediaTypeOf(contentType: string): { media: string } | { error: string } {
  const media = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  let i = 0;
  while (i < media.length && isTokenChar(media[i] ?? '')) i++;
  if (i === 0) return { error: 'mime: no media type' };
  if (i === media.length) return { media };
  if (media[i] !== '/') return { error: 'mime: expected slash after first token' };
  let j = i + 1;
  while (j < media.length && isTokenChar(media[j] ?? '')) j++;
  if (j === i + 1) return { error: 'mime: expected token after slash' };
  if (j !== media.length) return { error: 'mime: unexpected content after media subtype' };
  return { media };
}

/** apierrors.NewGenericServerResponse's message for a code, with the server's text where it keeps it. */
function genericServerResponseText(code: number, serverMessage: string): string {
  switch (code) {
    case 409:
      return 'the server reported a conflict';
    case 404:
      return 'the server could not find the requested resource';
    case 400:
      return 'the server rejected our request for an unknown reason';
    case 401:
      return 'the server has asked for the client to provide credentials';
    case 403:
    case 415:
      return serverMessage;
    case 406:
      return serverMessage === '' || serverMessage === 'unknown'
        ? 'the server was unable to respond with a content type that the client supports'
        : serverMessage;
    case 405:
      return 'the server does not allow this method on the requested resource';
    case 422:
      return 'the server rejected our request due to an error in our request';
    case 503:
      return 'the server is currently unable to handle the request';
    case 504:
      return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    case 429:
      return 'the server has received too many requests and has asked us to try again later';
    default:
      return code >= 500
        ? `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding`
        : `the server responded with the status code ${code} but did not return more information`;
  }
}

/** A non-2xx answer: a Failure Status it carries (Result.Error), else client-go's unstructured error. */
function errorAnswer(code: number, contentType: string | undefined, body: Buffer): CallResult {
  if (body.length > 0) {
    const decoded = decodeBody(body);
    const status = 'value' in decoded ? decoded.value : undefined;
    const apiVersion = isPlainObject(status) ? (status['apiVersion'] ?? 'v1') : undefined;
    if (isPlainObject(status) && status['kind'] === 'Status' && apiVersion === 'v1' && status['status'] === 'Failure')
      return {
        ok: false,
        code: typeof status['code'] === 'number' ? status['code'] : 0,
        error: typeof status['message'] === 'string' ? status['message'] : '',
      };
  }
  const parsed = contentType === undefined || contentType === '' ? { media: 'text/' } : mediaTypeOf(contentType);
  const isText = 'media' in parsed && parsed.media.startsWith('text/');
  const message = isText ? body.subarray(0, MAX_UNSTRUCTURED_TEXT_BYTES).toString('utf8').trim() : 'unknown';
  return { ok: false, code, error: genericServerResponseText(code, message) };
}

/** The answer of one exchange as client-go's Do(ctx).Into(review) ends. */
export function answerOf(code: number, contentType: string | undefined, body: Buffer): CallResult {
  const parsed = contentType === undefined || contentType === '' ? undefined : mediaTypeOf(contentType);
  if (parsed && 'error' in parsed) return { ok: false, code: 500, error: `Internal error occurred: ${parsed.error}` };
  if (code < 200 || code > 206) return errorAnswer(code, contentType, body);
  if (body.length === 0)
    return {
      ok: false,
      error: `0-length response with status code: ${code} and content type: ${contentType || DEFAULT_CONTENT_TYPE}`,
    };
  const decoded = decodeBody(body);
  if ('error' in decoded) return { ok: false, error: decoded.error };
  const fieldError = isPlainObject(decoded.value) ? reviewFieldError(decoded.value) : undefined;
  if (fieldError !== undefined) return { ok: false, error: fieldError };
  return { ok: true, body: decoded.value };
}
