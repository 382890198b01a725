import { parseFlags, parseIntFlag, type FlagDefinition } from './flag-set';

const DEFS: FlagDefinition[] = [
  { name: 'port', kind: 'int', default: '8080', usage: '' },
  { name: 'watch-cache', kind: 'bool', default: 'true', usage: '' },
  { name: 'data-dir', kind: 'string', default: './data', usage: '' },
];

describe('parseFlags (pflag as cobra runs it for kube-apiserver)', () => {
  it.each([
    [['--nope'], 'unknown flag: --nope'],
    [['-x'], "unknown shorthand flag: 'x' in -x"],
    [['---port=1'], 'bad flag syntax: ---port=1'],
    [['--=1'], 'bad flag syntax: --=1'],
    [['--port'], 'flag needs an argument: --port'],
    [['serve'], '"orch-apiserver" does not take any arguments, got ["serve"]'],
    [['a', '--port=1', 'b'], '"orch-apiserver" does not take any arguments, got ["a" "b"]'],
    [['--', '--port=1'], '"orch-apiserver" does not take any arguments, got ["--port=1"]'],
    [['--port=abc'], 'invalid argument "abc" for "--port" flag: strconv.ParseInt: parsing "abc": invalid syntax'],
    [
      ['--watch-cache=yes'],
      'invalid argument "yes" for "--watch-cache" flag: strconv.ParseBool: parsing "yes": invalid syntax',
    ],
  ])('refuses %j: %s', (args, message) => {
    expect(() => parseFlags(args, DEFS)).toThrow(message);
  });

  it('reads --help, -h and --help=false; flag errors still come first', () => {
    expect(parseFlags(['-h'], DEFS).help).toBe(true);
    expect(parseFlags(['--help', 'x'], DEFS).help).toBe(true);
    expect(parseFlags(['--help=false'], DEFS).help).toBe(false);
    expect(() => parseFlags(['--help', '--nope'], DEFS)).toThrow('unknown flag: --nope');
  });

  it('keeps int flags in decimal after Go base-0 parsing; an empty argument is no argument', () => {
    expect(parseFlags(['--port', '0x1F90', ''], DEFS).values.get('port')).toBe('8080');
    expect(parseFlags(['--port=-1'], DEFS).values.get('port')).toBe('-1');
  });
});

describe('parseIntFlag (strconv.ParseInt(s, 0, 64))', () => {
  it.each([
    ['8080', '8080'],
    ['+5', '5'],
    ['017', '15'],
    ['0o17', '15'],
    ['0b101', '5'],
    ['0x_1f', '31'],
    ['1_000', '1000'],
    ['0_7', '7'],
  ])('%s is %s', (text, value) => {
    expect(parseIntFlag('port', text)).toBe(value);
  });

  it.each([
    ['', 'invalid syntax'],
    [' 1', 'invalid syntax'],
    ['08', 'invalid syntax'],
    ['1e3', 'invalid syntax'],
    ['_1', 'invalid syntax'],
    ['1__0', 'invalid syntax'],
    ['7_', 'invalid syntax'],
    ['9223372036854775808', 'value out of range'],
  ])('%j: %s', (text, why) => {
    expect(() => parseIntFlag('port', text)).toThrow(
      `invalid argument ${JSON.stringify(text)} for "--port" flag: strconv.ParseInt: parsing ${JSON.stringify(text)}: ${why}`,
    );
  });
});
