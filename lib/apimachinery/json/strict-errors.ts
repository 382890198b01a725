// Kubernetes' wording of strict decoding problems: one StrictDecodingError message, or one warning per problem.
import { YAML_UNMARSHAL_ERRORS } from './yaml-to-json';

// k8s.io/apimachinery/pkg/runtime/error.go strictDecodingError.Error().
const STRICT_DECODING_ERROR = 'strict decoding error: ';

/** `strict decoding error: unknown field "spec.foo", duplicate field "spec.replicas"`. */
export function strictDecodingError(problems: readonly string[]): string {
  return `${STRICT_DECODING_ERROR}${problems.join(', ')}`;
}

/**
 * apiserver rest.go addStrictDecodingWarnings: yaml.v2's multi-line error (after its `shortPrefix`) becomes one
 * warning per line, trimmed; anything else stays whole.
 */
export function warningsOfStrictError(problem: string): string[] {
  if (!problem.startsWith(YAML_UNMARSHAL_ERRORS)) return [problem];
  return problem
    .slice(YAML_UNMARSHAL_ERRORS.length)
    .split('\n')
    .map((line) => line.trim());
}
