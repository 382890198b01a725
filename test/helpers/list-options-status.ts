// The 422 Invalid Status Kubernetes answers for broken ListOptions rules (group meta.orch.io here, meta.k8s.io there).

export type Cause = { reason: string; message: string; field: string };

/** A FieldValueForbidden cause on `field`. */
export const forbiddenCause = (field: string, detail: string): Cause => ({
  reason: 'FieldValueForbidden',
  message: `Forbidden: ${detail}`,
  field,
});

/** 422 Invalid on ListOptions, causes in order. */
export function invalidListOptions(...causes: Cause[]): Record<string, unknown> {
  const texts = causes.map((c) => `${c.field}: ${c.message}`);
  const joined = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `ListOptions.meta.orch.io "" is invalid: ${joined}`,
    reason: 'Invalid',
    details: { group: 'meta.orch.io', kind: 'ListOptions', causes },
    code: 422,
  };
}
