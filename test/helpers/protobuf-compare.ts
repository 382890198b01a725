// Comparing a decoded protobuf body with the JSON of the same request: protobuf has no null and always carries
// non-pointer structs, so `null` and `{}` are the same there as absent.

/** `value` with nulls and empty objects dropped (recursively), so JSON and decoded protobuf compare equal. */
export function withoutNullsAndEmptyObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullsAndEmptyObjects);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const normalized = withoutNullsAndEmptyObjects(v);
    if (
      normalized === null ||
      (typeof normalized === 'object' && !Array.isArray(normalized) && Object.keys(normalized as object).length === 0)
    )
      continue;
    out[k] = normalized;
  }
  return out;
}
