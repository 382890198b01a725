// How Go prints decoded JSON values (`%v`, `%s`, reflect type names), for strategic merge patch error texts.
import { isPlainObject } from '../meta/types';
import { compareGoStrings } from '../labels/parser';

/**
 * The Go dynamic type a decoded JSON value has in strategicpatch (integers decode as int64,
 * other numbers as float64); `nil` for null. Two values of different types never merge.
 */
export type GoType = 'map' | 'slice' | 'string' | 'int64' | 'float64' | 'bool' | 'nil';

export function goTypeOf(value: unknown): GoType {
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return 'slice';
  if (isPlainObject(value)) return 'map';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  return Number.isInteger(value) ? 'int64' : 'float64';
}

const REFLECT_NAMES: Record<GoType, string> = {
  map: 'map[string]interface {}',
  slice: '[]interface {}',
  string: 'string',
  int64: 'int64',
  float64: 'float64',
  bool: 'bool',
  nil: '%!s(<nil>)', // `%s` of a nil reflect.Type
};

/** `%s` of reflect.TypeOf(value). */
export function reflectTypeName(value: unknown): string {
  return REFLECT_NAMES[goTypeOf(value)];
}

/** strconv.FormatFloat(f, 'g', -1, 64): shortest digits, exponent form below 1e-4 or from 1e6 on… as `%v` prints. */
function goFloat(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN';
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6)
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  return String(value);
}

function printScalar(value: unknown, verb: 'v' | 's'): string {
  const type = goTypeOf(value);
  if (type === 'string') return value as string;
  const text = type === 'nil' ? '<nil>' : type === 'float64' ? goFloat(value as number) : String(value);
  if (verb === 'v') return text;
  return type === 'nil' ? '%!s(<nil>)' : `%!s(${type}=${text})`; // Go's "bad verb" form for non-strings under %s
}

/** fmt's `%v` (or `%s`) of a decoded JSON value: `map[k:v …]` with sorted keys, `[a b]`, `<nil>`. */
export function goPrint(value: unknown, verb: 'v' | 's' = 'v'): string {
  if (Array.isArray(value)) return `[${value.map((v) => goPrint(v, verb)).join(' ')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort(compareGoStrings);
    return `map[${keys.map((k) => `${k}:${goPrint(value[k], verb)}`).join(' ')}]`;
  }
  return printScalar(value, verb);
}
