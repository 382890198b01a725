// spec.behavior in the round-trip annotation: the internal struct marshalled without json tags (Go field names), read back case-insensitively.
import { isPlainObject } from '../../apimachinery/meta/types';

type Json = Record<string, unknown>;

function rulesToGo(rules: unknown): Json | null {
  if (!isPlainObject(rules)) return null;
  const policies = Array.isArray(rules.policies)
    ? rules.policies.map((p: unknown) => {
        const policy = isPlainObject(p) ? p : {};
        return { Type: policy.type ?? '', Value: policy.value ?? 0, PeriodSeconds: policy.periodSeconds ?? 0 };
      })
    : null;
  return {
    StabilizationWindowSeconds: rules.stabilizationWindowSeconds ?? null,
    SelectPolicy: rules.selectPolicy ?? null,
    Policies: policies,
  };
}

/** The annotation's text for a v2 `spec.behavior`. */
export function behaviorAnnotation(behavior: Json): string {
  return JSON.stringify({ ScaleUp: rulesToGo(behavior.scaleUp), ScaleDown: rulesToGo(behavior.scaleDown) });
}

/** encoding/json matches keys case-insensitively: the value of `name` in `obj`, any case. */
function field(obj: Json, name: string): unknown {
  if (name in obj) return obj[name];
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : obj[key];
}

function present(entries: Json): Json {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined && v !== null));
}

function rulesFromGo(rules: unknown): Json | undefined {
  if (!isPlainObject(rules)) return undefined;
  const list = field(rules, 'policies');
  const policies = Array.isArray(list)
    ? list.map((p: unknown) => {
        const policy = isPlainObject(p) ? p : {};
        return present({
          type: field(policy, 'type'),
          value: field(policy, 'value'),
          periodSeconds: field(policy, 'periodSeconds'),
        });
      })
    : undefined;
  return present({
    stabilizationWindowSeconds: field(rules, 'stabilizationWindowSeconds'),
    selectPolicy: field(rules, 'selectPolicy'),
    policies,
  });
}

/** The v2 behavior an annotation holds, or undefined when it does not parse or is empty (ignored upstream too). */
export function behaviorFromAnnotation(text: string): Json | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(parsed)) return undefined;
  const behavior = present({
    scaleUp: rulesFromGo(field(parsed, 'scaleUp')),
    scaleDown: rulesFromGo(field(parsed, 'scaleDown')),
  });
  return Object.keys(behavior).length === 0 ? undefined : behavior;
}
