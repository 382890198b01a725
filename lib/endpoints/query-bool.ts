// Boolean query parameters as apimachinery's query conversion reads them (Convert_Slice_string_To_bool).

/**
 * The first value of a boolean parameter: absent is false; `0` and `false` in any case are false; anything else,
 * the empty value included (`?watch`, `?force=`), and `True`/`yes`/`1` as the Python client sends them, is true.
 */
export function parseQueryBool(value: string | null): boolean {
  if (value === null) return false;
  return value !== '0' && value.toLowerCase() !== 'false';
}

/** `name` as a boolean when present, undefined when the query does not carry it (for *bool options). */
export function optionalQueryBool(query: URLSearchParams, name: string): boolean | undefined {
  return query.has(name) ? parseQueryBool(query.get(name)) : undefined;
}
