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
    return [
      invalidValue(
        FieldPath.root('spec', 'nonResourceAttributes'),
        nonResourceLiteral(spec['nonResourceAttributes'] as Record<string, unknown>),
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

/** ObjectMeta must be empty apart from managedFields (and whatever else `ignored` names). */
function metadataMustBeEmpty(obj: ApiObject, detail = 'must be empty', ignored: readonly string[] = []): FieldError[] {
  const rest = Object.entries(obj.metadata ?? {}).filter(
    ([k, v]) => k !== 'managedFields' && !ignored.includes(k) && v !== undefined && v !== null && v !== '',
  );
  return rest.length > 0 ? [invalidValue(FieldPath.root('metadata'), 'v1.ObjectMeta', detail)] : [];
}

/** A NonResourceAttributes as Go's %#v prints the internal type. */
function nonResourceLiteral(n: Record<string, unknown>): ReturnType<typeof goLiteral> {
  return goLiteral(
    `authorization.NonResourceAttributes{Path:${goQuote(String(n['path'] ?? ''))}, Verb:${goQuote(String(n['verb'] ?? ''))}}`,
  );
}

export function validateSelfSubjectAccessReview(obj: ApiObject): FieldError[] {
  return [...validateAttributes(specOf(obj)), ...metadataMustBeEmpty(obj)];
}

/** ValidateSubjectAccessReviewSpec: one kind of attributes, and a user or a group to ask about. */
function validateSubjectAccessReviewSpec(spec: Record<string, unknown>): FieldError[] {
  const errs = validateAttributes(spec);
  const user = typeof spec['user'] === 'string' ? spec['user'] : '';
  const groups = Array.isArray(spec['groups']) ? spec['groups'] : [];
  if (user === '' && groups.length === 0)
    errs.push(invalidValue(FieldPath.root('spec', 'user'), user, 'at least one of user or group must be specified'));
  return errs;
}

export function validateSubjectAccessReview(obj: ApiObject): FieldError[] {
  return [...validateSubjectAccessReviewSpec(specOf(obj)), ...metadataMustBeEmpty(obj)];
}

/** As a SubjectAccessReview, in one namespace: resource attributes must name it, non-resource ones are refused. */
export function validateLocalSubjectAccessReview(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  const errs = [
    ...validateSubjectAccessReviewSpec(spec),
    ...metadataMustBeEmpty(obj, 'must be empty except for namespace', ['namespace']),
  ];
  const namespace = obj.metadata?.namespace ?? '';
  const resource = spec['resourceAttributes'];
  if (isPlainObject(resource)) {
    const asked = typeof resource['namespace'] === 'string' ? resource['namespace'] : '';
    if (asked !== namespace)
      errs.push(
        invalidValue(FieldPath.root('spec', 'resourceAttributes', 'namespace'), asked, 'must match metadata.namespace'),
      );
  }
  const nonResource = spec['nonResourceAttributes'];
  if (isPlainObject(nonResource))
    errs.push(
      invalidValue(
        FieldPath.root('spec', 'nonResourceAttributes'),
        nonResourceLiteral(nonResource),
        'disallowed on this kind of request',
      ),
    );
  return errs;
}
