// PriorityLevelConfiguration spec validation (pkg/apis/flowcontrol/validation of Kubernetes 1.26).
import type { FieldError } from '../../apimachinery/field/errors';
import { forbiddenField, invalidValue, notSupported, required } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import type { JsonObject } from '../../apimachinery/validation/untrusted-json';
import { WRONG_TYPE, readInt32, readObject, readString } from '../../apimachinery/validation/untrusted-json';

export const PRIORITY_LEVEL_NAME_EXEMPT = 'exempt';

/** The served version a request came through; it only names the shares field in error paths. */
export type FlowcontrolVersion = 'v1beta2' | 'v1beta3';

const SUPPORTED_TYPES = ['Exempt', 'Limited'];
const SUPPORTED_LIMIT_RESPONSE_TYPES = ['Queue', 'Reject'];
const MAX_QUEUES = 10_000_000;
/** shufflesharding.MaxHashBits */
const MAX_HASH_BITS = 60;

/**
 * Spec errors in Kubernetes' order. `value` is the v1beta3 form (`nominalConcurrencyShares`); a
 * request through v1beta2 reports that field as `assuredConcurrencyShares`, as Kubernetes does.
 */
export function validatePriorityLevelConfigurationSpec(
  name: string,
  value: unknown,
  path: FieldPath,
  version: FlowcontrolVersion,
): FieldError[] {
  const errs: FieldError[] = [];
  const spec = readObject(errs, path, value);
  if (spec === WRONG_TYPE) return errs;
  const s = spec ?? {};
  const typePath = path.child('type');
  const typeRead = readString(errs, typePath, s.type);
  if (typeRead === WRONG_TYPE) return errs;
  const type = typeRead ?? '';

  if ((name === PRIORITY_LEVEL_NAME_EXEMPT) !== (type === 'Exempt')) {
    errs.push(invalidValue(typePath, type, "type must be 'Exempt' if and only if name is 'exempt'"));
  }
  switch (type) {
    case 'Exempt':
      if (s.limited !== undefined && s.limited !== null)
        errs.push(forbiddenField(path.child('limited'), 'must be nil if the type is not Limited'));
      break;
    case 'Limited': {
      const limited = readObject(errs, path.child('limited'), s.limited);
      if (limited === undefined) errs.push(required(path.child('limited'), 'must not be empty when type is Limited'));
      else if (limited !== WRONG_TYPE) validateLimited(errs, limited, path.child('limited'), version);
      break;
    }
    default:
      errs.push(notSupported(typePath, type, SUPPORTED_TYPES));
  }
  return errs;
}

function validateLimited(errs: FieldError[], limited: JsonObject, path: FieldPath, version: FlowcontrolVersion): void {
  const sharesPath = path.child(version === 'v1beta2' ? 'assuredConcurrencyShares' : 'nominalConcurrencyShares');
  const shares = readInt32(errs, sharesPath, limited.nominalConcurrencyShares);
  if (shares !== WRONG_TYPE && (shares ?? 0) <= 0) errs.push(invalidValue(sharesPath, shares ?? 0, 'must be positive'));

  // limitResponse is a struct, not a pointer, in Go: absent means `{type: ""}`.
  const limitResponse = readObject(errs, path.child('limitResponse'), limited.limitResponse);
  if (limitResponse !== WRONG_TYPE) validateLimitResponse(errs, limitResponse ?? {}, path.child('limitResponse'));

  const lendable = readInt32(errs, path.child('lendablePercent'), limited.lendablePercent);
  if (typeof lendable === 'number' && (lendable < 0 || lendable > 100)) {
    errs.push(invalidValue(path.child('lendablePercent'), lendable, 'must be between 0 and 100, inclusive'));
  }
  const borrowing = readInt32(errs, path.child('borrowingLimitPercent'), limited.borrowingLimitPercent);
  if (typeof borrowing === 'number' && borrowing < 0) {
    errs.push(
      invalidValue(path.child('borrowingLimitPercent'), borrowing, 'if specified, must be a non-negative integer'),
    );
  }
}

function validateLimitResponse(errs: FieldError[], lr: JsonObject, path: FieldPath): void {
  const typeRead = readString(errs, path.child('type'), lr.type);
  if (typeRead === WRONG_TYPE) return;
  const type = typeRead ?? '';
  const queuingPath = path.child('queuing');
  switch (type) {
    case 'Reject':
      // Upstream's texts say "Limited" where they mean "Queue"; kept byte for byte.
      if (lr.queuing !== undefined && lr.queuing !== null)
        errs.push(forbiddenField(queuingPath, 'must be nil if limited.limitResponse.type is not Limited'));
      break;
    case 'Queue': {
      const queuing = readObject(errs, queuingPath, lr.queuing);
      if (queuing === undefined)
        errs.push(required(queuingPath, 'must not be empty if limited.limitResponse.type is Limited'));
      else if (queuing !== WRONG_TYPE) validateQueuing(errs, queuing, queuingPath);
      break;
    }
    default:
      errs.push(notSupported(path.child('type'), type, SUPPORTED_LIMIT_RESPONSE_TYPES));
  }
}

function validateQueuing(errs: FieldError[], queuing: JsonObject, path: FieldPath): void {
  const limitPath = path.child('queueLengthLimit');
  const limit = readInt32(errs, limitPath, queuing.queueLengthLimit);
  if (limit !== WRONG_TYPE && (limit ?? 0) <= 0) errs.push(invalidValue(limitPath, limit ?? 0, 'must be positive'));

  const queuesPath = path.child('queues');
  const queuesRead = readInt32(errs, queuesPath, queuing.queues);
  const queues = queuesRead === WRONG_TYPE ? undefined : (queuesRead ?? 0);
  if (queues !== undefined) {
    if (queues <= 0) errs.push(invalidValue(queuesPath, queues, 'must be positive'));
    else if (queues > MAX_QUEUES) errs.push(invalidValue(queuesPath, queues, `must not be greater than ${MAX_QUEUES}`));
  }

  const handPath = path.child('handSize');
  const handRead = readInt32(errs, handPath, queuing.handSize);
  if (handRead === WRONG_TYPE) return;
  const hand = handRead ?? 0;
  if (hand <= 0) errs.push(invalidValue(handPath, hand, 'must be positive'));
  else if (queues === undefined) return;
  else if (hand > queues) errs.push(invalidValue(handPath, hand, `should not be greater than queues (${queues})`));
  else if (requiredEntropyBits(queues, hand) > MAX_HASH_BITS) {
    errs.push(
      invalidValue(
        handPath,
        hand,
        `required entropy bits of deckSize ${queues} and handSize ${hand} should not be greater than ${MAX_HASH_BITS}`,
      ),
    );
  }
}

/** shufflesharding.RequiredEntropyBits: ceil(log2(deckSize) × handSize), with Go's math.Log2. */
export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(goLog2(deckSize) * handSize);
}

// Go computes Log2 as Log(frac)·(1/Ln2) + exp from Frexp, exact at powers of two; following it
// keeps the ceil() above on the same side of an integer as Kubernetes. Only positive integers reach here.
function goLog2(x: number): number {
  const exp = Math.floor(x).toString(2).length;
  const frac = x / 2 ** exp;
  if (frac === 0.5) return exp - 1;
  return Math.log(frac) * Math.LOG2E + exp;
}
