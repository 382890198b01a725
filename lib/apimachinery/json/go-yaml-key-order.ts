// Map key order of gopkg.in/yaml.v2's Marshal (sorter.go keyList.Less for string keys): letters after other characters, digit runs compared as numbers.
const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

const isLetter = (c = ''): boolean => LETTER.test(c);
const isDigit = (c = ''): boolean => DIGIT.test(c);
const runeLess = (a = '', b = ''): boolean => (a.codePointAt(0) ?? 0) < (b.codePointAt(0) ?? 0);

/** The number a run of digits starting at `from` spells (in Go's wrapping int64 arithmetic), and where it ends. */
function digitRun(chars: readonly string[], from: number, start: bigint): [bigint, number] {
  let n = start;
  let end = from;
  for (; end < chars.length && isDigit(chars[end]); end++)
    n = BigInt.asIntN(64, n * 10n + BigInt((chars[end]?.charCodeAt(0) ?? 48) - 48));
  return [n, end];
}

/** keyList.Less(a, b) for two strings. */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return runeLess(ar[i], br[i]);
    if (al || bl) return bl;
    // A zero continuing a number that started with a non-zero digit counts as a digit of that number.
    let start = 0n;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          start = 1n;
          break;
        }
      }
    }
    const [an, ai] = digitRun(ar, i, start);
    const [bn, bi] = digitRun(br, i, start);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return runeLess(ar[i], br[i]);
  }
  return ar.length < br.length;
}

/**
 * The keys of a JSON object in the order yaml.v2 writes them. Less is not transitive (`a10 < a1a < a9 < a10`); for
 * such key sets Go's own order depends on map iteration order, which is random.
 */
export function goYamlSortedKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj).sort((a, b) => (goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0));
}
