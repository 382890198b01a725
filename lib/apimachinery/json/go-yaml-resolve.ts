// How gopkg.in/yaml.v2 (resolve.go) types a scalar, and how Go's fmt and strconv print what it decoded: the facts
// behind the YAML errors and map keys of sigs.k8s.io/yaml.
import { goQuote } from '../field/errors';
import { goIntValue } from './go-yaml-scalars';

export type GoYamlTag = 'null' | 'bool' | 'int' | 'float' | 'str';

export interface GoYamlScalar {
  tag: GoYamlTag;
  /** The Go value: null, boolean, bigint (int64 or uint64), number (float64) or string. */
  value: null | boolean | bigint | number | string;
}

const SPECIAL = new Map<string, GoYamlScalar>();
const special = (names: string, scalar: GoYamlScalar): void => {
  for (const name of names.split(' ')) SPECIAL.set(name, scalar);
};
special('y Y yes Yes YES true True TRUE on On ON', { tag: 'bool', value: true });
special('n N no No NO false False FALSE off Off OFF', { tag: 'bool', value: false });
special('~ null Null NULL', { tag: 'null', value: null });
SPECIAL.set('', { tag: 'null', value: null });
special('.nan .NaN .NAN', { tag: 'float', value: NaN });
special('.inf .Inf .INF +.inf +.Inf +.INF', { tag: 'float', value: Infinity });
special('-.inf -.Inf -.INF', { tag: 'float', value: -Infinity });

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const GO_DECIMAL_FLOAT = /^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

/** strconv.ParseFloat(s, 64) for the decimal forms yaml.v2 hands it; undefined on a syntax or range error. */
function goParseFloat(s: string): number | undefined {
  if (!GO_DECIMAL_FLOAT.test(s)) return undefined;
  const value = Number(s);
  return Number.isFinite(value) ? value : undefined;
}

/** resolve("", in) for a plain scalar: its tag and Go value (timestamps stay strings, as yaml.v2 leaves them for interface{}). */
export function goResolvePlain(text: string): GoYamlScalar {
  const known = SPECIAL.get(text);
  if (known) return known;
  const first = text.charAt(0);
  if (first === '.') {
    const value = goParseFloat(text);
    return value === undefined ? { tag: 'str', value: text } : { tag: 'float', value };
  }
  if (first === '+' || first === '-' || (first >= '0' && first <= '9')) {
    const plain = text.replace(/_/g, '');
    const int = goIntValue(plain);
    if (int !== undefined) return { tag: 'int', value: int };
    if (YAML_STYLE_FLOAT.test(plain)) {
      const value = goParseFloat(plain);
      if (value !== undefined) return { tag: 'float', value };
    }
  }
  return { tag: 'str', value: text };
}

const UINT64_FROM = 2n ** 63n;
export const isUint64 = (value: bigint): boolean => value >= UINT64_FROM;

/** The shortest digits that read back as x at the given float width, and the decimal point's position (strconv's decimal). */
function shortestDigits(x: number, bits: 32 | 64): { digits: string; point: number } {
  const target = bits === 32 ? Math.fround(x) : x;
  for (let precision = 1; precision <= 17; precision++) {
    const text = target.toExponential(precision - 1);
    const back = Number(text);
    if ((bits === 32 ? Math.fround(back) : back) !== target) continue;
    const [mantissa, exponent] = text.split('e');
    const digits = (mantissa ?? '').replace('.', '').replace(/0+$/, '') || '0';
    return { digits, point: Number(exponent) + 1 };
  }
  return { digits: '0', point: 1 };
}

/** strconv.FormatFloat(x, 'g', -1, bits). */
export function goFormatFloat(x: number, bits: 32 | 64): string {
  const value = bits === 32 ? Math.fround(x) : x;
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  if (value === 0) return `${sign}0`;
  const { digits, point } = shortestDigits(Math.abs(value), bits);
  const exponent = point - 1;
  if (exponent < -4 || exponent >= 6 /* the shortest form's %e threshold */) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const magnitude = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${mantissa}e${exponent < 0 ? '-' : '+'}${magnitude}`;
  }
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A decoded YAML value as yaml.v2 hands it to Go: scalars, `map[interface {}]interface {}`, `[]interface {}`. */
export type GoYamlValue =
  GoYamlScalar | { tag: 'map'; entries: Array<[GoYamlValue, GoYamlValue]> } | { tag: 'seq'; items: GoYamlValue[] };

const SORT_RANK: Record<GoYamlValue['tag'], number> = { null: 0, bool: 1, int: 2, float: 3, str: 4, map: 5, seq: 6 };

function compareKeys(a: GoYamlValue, b: GoYamlValue): number {
  if (a.tag !== b.tag) return SORT_RANK[a.tag] - SORT_RANK[b.tag];
  if ('value' in a && 'value' in b && a.value !== null && b.value !== null) {
    return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  }
  return 0;
}

/** fmt's `%#v` of a value yaml.v2 decoded into interface{} (map keys sorted as fmt sorts them within one type). */
export function goSharpV(value: GoYamlValue, nested = false): string {
  switch (value.tag) {
    case 'null':
      return nested ? 'interface {}(nil)' : '<nil>';
    case 'bool':
      return String(value.value);
    case 'int': {
      const int = value.value as bigint;
      return isUint64(int) ? `0x${int.toString(16)}` : int.toString();
    }
    case 'float':
      return goFormatFloat(value.value as number, 64);
    case 'str':
      return goQuote(value.value as string);
    case 'seq':
      return `[]interface {}{${value.items.map((item) => goSharpV(item, true)).join(', ')}}`;
    case 'map': {
      const entries = [...value.entries].sort(([a], [b]) => compareKeys(a, b));
      const text = entries.map(([k, v]) => `${goSharpV(k, true)}:${goSharpV(v, true)}`).join(', ');
      return `map[interface {}]interface {}{${text}}`;
    }
  }
}

/** reflect.TypeOf(v).String() printed with %s, as sigs.k8s.io/yaml's key error prints it. */
export function goTypeName(value: GoYamlValue): string {
  switch (value.tag) {
    case 'null':
      return '%!s(<nil>)';
    case 'int':
      return isUint64(value.value as bigint) ? 'uint64' : 'int';
    case 'float':
      return 'float64';
    case 'bool':
      return 'bool';
    case 'str':
      return 'string';
    case 'map':
      return 'map[interface {}]interface {}';
    case 'seq':
      return '[]interface {}';
  }
}
