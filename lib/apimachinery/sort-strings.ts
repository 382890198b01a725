// Sorting the short key lists of one object level (map keys for validation order, FieldsV1 levels) without Array#sort's
// per-call allocation of its sort state: the hot write path sorts dozens of these per request.

/** Array#sort's default order for strings (UTF-16 code units). */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Up to this many strings are sorted by insertion; longer lists go to Array#sort. */
const INSERTION_SORT_MAX = 32;

/** Sorts `keys` in place and returns it, stable and in the same order as `keys.sort(compare)`. */
export function sortStrings(keys: string[], compare: (a: string, b: string) => number = byCodeUnits): string[] {
  if (keys.length > INSERTION_SORT_MAX) return keys.sort(compare);
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    for (; j >= 0 && compare(keys[j] as string, key) > 0; j--) keys[j + 1] = keys[j] as string;
    keys[j + 1] = key;
  }
  return keys;
}
