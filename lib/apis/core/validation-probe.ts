// Probes and lifecycle hooks (validateProbe, validateHandler) and port checks, with pkg/apis/core/validation's 1.26 texts.
import type { FieldError } from '../../apimachinery/field/errors';
import { forbiddenField, invalidValue, notSupported, required } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { maxLenError, regexError } from '../../apimachinery/validation/names';
import type { JsonObject } from '../../apimachinery/validation/untrusted-json';
import {
  WRONG_TYPE,
  isAbsent,
  readInt32,
  readInt64,
  readObject,
  readObjectList,
  readString,
  readStringList,
} from '../../apimachinery/validation/untrusted-json';
import { readIntOrString } from './go-values';

const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const PORT_RANGE_ERROR = 'must be between 1 and 65535, inclusive';
const NON_NEGATIVE = 'must be greater than or equal to 0';

/** validation.IsValidPortNum */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [PORT_RANGE_ERROR];
}

/** validation.IsValidPortName (IANA_SVC_NAME) */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

const HTTP_HEADER_NAME_FMT = '[-A-Za-z0-9]+';

function isHTTPHeaderName(name: string): string[] {
  return new RegExp(`^${HTTP_HEADER_NAME_FMT}$`).test(name)
    ? []
    : [
        regexError(
          "a valid HTTP header must consist of alphanumeric characters or '-'",
          HTTP_HEADER_NAME_FMT,
          'X-Header-Name',
        ),
      ];
}

/** ValidatePortNumOrName: an absent port is IntOrString's zero value, the int 0. */
function validatePortNumOrName(errs: FieldError[], path: FieldPath, value: unknown): void {
  const port = readIntOrString(errs, path, value) ?? { type: 0, intVal: 0 };
  if (port === WRONG_TYPE) return;
  if (port.type === 0) for (const msg of isValidPortNum(port.intVal)) errs.push(invalidValue(path, port.intVal, msg));
  else for (const msg of isValidPortName(port.strVal)) errs.push(invalidValue(path, port.strVal, msg));
}

const HANDLER_VALIDATORS: Record<string, (errs: FieldError[], action: JsonObject, path: FieldPath) => void> = {
  exec(errs, action, path) {
    const command = readStringList(errs, path.child('command'), action.command);
    if (command !== WRONG_TYPE && (command ?? []).length === 0) errs.push(required(path.child('command')));
  },
  httpGet(errs, action, path) {
    const p = readString(errs, path.child('path'), action.path);
    if (p === undefined || p === '') errs.push(required(path.child('path')));
    validatePortNumOrName(errs, path.child('port'), action.port);
    const scheme = readString(errs, path.child('scheme'), action.scheme);
    if (scheme !== WRONG_TYPE && !HTTP_SCHEMES.includes(scheme ?? ''))
      errs.push(notSupported(path.child('scheme'), scheme ?? '', HTTP_SCHEMES));
    const headers = readObjectList(errs, path.child('httpHeaders'), action.httpHeaders);
    if (Array.isArray(headers)) {
      headers.forEach((h, i) => {
        const name = readString(
          errs,
          path.child('httpHeaders').index(i).child('name'),
          h === WRONG_TYPE ? undefined : h?.name,
        );
        if (name !== WRONG_TYPE)
          for (const msg of isHTTPHeaderName(name ?? ''))
            errs.push(invalidValue(path.child('httpHeaders'), name ?? '', msg));
      });
    }
  },
  tcpSocket(errs, action, path) {
    validatePortNumOrName(errs, path.child('port'), action.port);
  },
  grpc(errs, action, path) {
    const port = readInt32(errs, path.child('port'), action.port);
    if (port !== WRONG_TYPE)
      for (const msg of isValidPortNum(port ?? 0)) errs.push(invalidValue(path.child('port'), port ?? 0, msg));
  },
};

/** validateHandler: exactly one of the handler kinds. */
function validateHandler(errs: FieldError[], handler: JsonObject, path: FieldPath, kinds: readonly string[]): void {
  let count = 0;
  for (const kind of kinds) {
    const action = readObject(errs, path.child(kind), handler[kind]);
    if (action === undefined) continue;
    if (count > 0) {
      errs.push(forbiddenField(path.child(kind), 'may not specify more than 1 handler type'));
      continue;
    }
    count++;
    if (action !== WRONG_TYPE) HANDLER_VALIDATORS[kind]?.(errs, action, path.child(kind));
  }
  if (count === 0) errs.push(required(path, 'must specify a handler type'));
}

const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const LIFECYCLE_HANDLERS = ['exec', 'httpGet', 'tcpSocket'];
const PROBE_COUNTERS = [
  'initialDelaySeconds',
  'timeoutSeconds',
  'periodSeconds',
  'successThreshold',
  'failureThreshold',
];

/** validateProbe; returns the probe object for the kind-specific rules. */
export function validateProbe(errs: FieldError[], value: unknown, path: FieldPath): JsonObject | undefined {
  const probe = readObject(errs, path, value);
  if (probe === undefined || probe === WRONG_TYPE) return undefined;
  validateHandler(errs, probe, path, PROBE_HANDLERS);
  for (const counter of PROBE_COUNTERS) {
    const n = readInt32(errs, path.child(counter), probe[counter]);
    if (typeof n === 'number' && n < 0) errs.push(invalidValue(path.child(counter), n, NON_NEGATIVE));
  }
  const grace = readInt64(errs, path.child('terminationGracePeriodSeconds'), probe.terminationGracePeriodSeconds);
  if (typeof grace === 'number' && grace <= 0)
    errs.push(invalidValue(path.child('terminationGracePeriodSeconds'), grace, 'must be greater than 0'));
  return probe;
}

export function requireSuccessThresholdOne(errs: FieldError[], probe: JsonObject | undefined, path: FieldPath): void {
  if (probe === undefined) return;
  const threshold =
    typeof probe.successThreshold === 'number' ? probe.successThreshold : isAbsent(probe.successThreshold) ? 0 : 1;
  if (threshold !== 1) errs.push(invalidValue(path.child('successThreshold'), threshold, 'must be 1'));
}

export function validateLifecycle(errs: FieldError[], value: unknown, path: FieldPath): void {
  const lifecycle = readObject(errs, path, value);
  if (lifecycle === undefined || lifecycle === WRONG_TYPE) return;
  for (const hook of ['postStart', 'preStop']) {
    const handler = readObject(errs, path.child(hook), lifecycle[hook]);
    if (handler !== undefined && handler !== WRONG_TYPE)
      validateHandler(errs, handler, path.child(hook), LIFECYCLE_HANDLERS);
  }
}
