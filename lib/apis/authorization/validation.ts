// Validation of authorization.orch.io/v1 reviews (Kubernetes 1.26 pkg/apis/authorization/validation).
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import type { FieldError } from '../../apimachinery/field/errors';
import { goLiteral, goQuote, invalidValue } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';

/** Exactly one of resourceAttributes and nonResourceAttributes (a nil pointer prints as "null"). */
function validateAttributes(spec: Record<string, unknown>): FieldError[] {
  const hasResource = isPlainObject(spec['resourceAttributes']);
  const hasNonResource = isPlainObject(spec['nonResourceAttributes']);
  if (hasResource && hasNonResource) {
    const n = spec['nonResourceAttributes'] as Record<string, unknown>;
    const literal = goLiteral(
      `authorization.NonResourceAttributes{Path:${goQuote(String(n['path'] ?? ''))}, Verb:${goQuote(String(n['verb'] ?? ''))}}`,
    );
    return [
      invalidValue(
        FieldPath.root('spec', 'nonResourceAttributes'),
        literal,
        'cannot be specified in combination with resourceAttributes',
      ),
    ];
  }
  if (!hasResource && !hasNonResource)
    return [
      invalidValue(
        FieldPath.root('spec', 'resourceAttributes'),
        'null',
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    ];
  return [];
}

function specOf(obj: ApiObject): Record<string, unknown> {
  return isPlainObject(obj['spec']) ? obj['spec'] : {};
}

/** ObjectMeta must be empty apart from managedFields. */
function metadataMustBeEmpty(obj: ApiObject): FieldError[] {
  const rest = Object.entries(obj.metadata ?? {}).filter(
    ([k, v]) => k !== 'managedFields' && v !== undefined && v !== null && v !== '',
  );
  return rest.length > 0 ? [invalidValue(FieldPath.root('metadata'), 'v1.ObjectMeta', 'must be empty')] : [];
}

export function validateSelfSubjectAccessReview(obj: ApiObject): FieldError[] {
  return [...validateAttributes(specOf(obj)), ...metadataMustBeEmpty(obj)];
}

export function validateSubjectAccessReview(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  const errs = validateAttributes(spec);
  const user = typeof spec['user'] === 'string' ? spec['user'] : '';
  const groups = Array.isArray(spec['groups']) ? spec['groups'] : [];
  if (user === '' && groups.length === 0)
    errs.push(invalidValue(FieldPath.root('spec', 'user'), user, 'at least one of user or group must be specified'));
  return [...errs, ...metadataMustBeEmpty(obj)];
}
