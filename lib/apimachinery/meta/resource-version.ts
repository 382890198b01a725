// resourceVersion strings as Kubernetes' storage versioner parses them (strconv.ParseUint(value, 10, 64)).
import { badRequest, type StatusError } from '../errors';

const UINT64_MAX = 2n ** 64n - 1n;

/** Why strconv.ParseUint refuses `value`, or undefined when it is a uint64. */
function parseUintProblem(value: string): string | undefined {
  if (!/^\d+$/.test(value)) return 'invalid syntax';
  return BigInt(value) > UINT64_MAX ? 'value out of range' : undefined;
}

/** The 400 for a resourceVersion that is not a uint64 (`invalid resource version: …`), or undefined for a valid one. */
export function invalidResourceVersion(value: string): StatusError | undefined {
  const problem = parseUintProblem(value);
  if (problem === undefined) return undefined;
  const quoted = JSON.stringify(value);
  return badRequest(
    `invalid resource version: resourceVersion: Invalid value: ${quoted}: strconv.ParseUint: parsing ${quoted}: ${problem}`,
  );
}
