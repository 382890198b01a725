// Go encoding/json's syntax error texts for invalid request bodies, and its words for JSON kinds.
import { goJsonKind, goKindWord } from './go-json-errors';
import { goJsonSyntaxError } from './json-reader';
import { MAX_NESTING_DEPTH } from './max-depth';

describe('goJsonSyntaxError', () => {
  it.each([
    ['', 'unexpected end of JSON input'],
    ['{', 'unexpected end of JSON input'],
    ['{"a":', 'unexpected end of JSON input'],
    ['tru', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['{1:2}', "invalid character '1' looking for beginning of object key string"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['01', "invalid character '1' after top-level value"],
    ['trx', "invalid character 'x' in literal true (expecting 'u')"],
    ['nul', 'unexpected end of JSON input'],
    ['fals3', "invalid character '3' in literal false (expecting 'e')"],
    ['-x', "invalid character 'x' in numeric literal"],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['"\\q"', "invalid character 'q' in string escape code"],
    ['"\\u12x4"', "invalid character 'x' in \\u hexadecimal character escape"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['\t{"a":\u0001}', "invalid character '\\x01' looking for beginning of value"],
    ['{"a":1}}', "invalid character '}' after top-level value"],
  ])('%j → %s', (text, expected) => {
    expect(goJsonSyntaxError(Buffer.from(text))).toBe(expected);
  });

  it('accepts valid JSON', () => {
    expect(goJsonSyntaxError(Buffer.from(' {"a": [1, -2.5e+3, true, false, null, "\\u00e9\\n"]} '))).toBeUndefined();
  });

  it('names a stray non-ASCII byte by its Latin-1 rune', () => {
    expect(goJsonSyntaxError(Buffer.from('é'))).toBe("invalid character 'Ã' looking for beginning of value");
  });

  it('names an invalid UTF-8 byte itself, as Go reads bytes', () => {
    expect(goJsonSyntaxError(Buffer.from([0x7b, 0xff]))).toBe(
      "invalid character 'ÿ' looking for beginning of object key string",
    );
    expect(goJsonSyntaxError(Buffer.from([0x5b, 0x85]))).toBe(
      "invalid character '\\u0085' looking for beginning of value",
    );
  });

  it('accepts invalid UTF-8 inside a string, as Go does', () => {
    expect(goJsonSyntaxError(Buffer.from([0x22, 0xff, 0xfe, 0x22]))).toBeUndefined();
  });

  it('refuses nesting past the depth limit with the scanner text', () => {
    expect(goJsonSyntaxError(Buffer.from('['.repeat(MAX_NESTING_DEPTH + 1)))).toBe(
      "invalid character '[' exceeded max depth",
    );
    expect(
      goJsonSyntaxError(Buffer.from(`${'['.repeat(MAX_NESTING_DEPTH)}${']'.repeat(MAX_NESTING_DEPTH)}`)),
    ).toBeUndefined();
  });
});

describe("Go's word for a JSON kind (UnmarshalTypeError)", () => {
  it.each([
    [{}, 'object'],
    [[], 'array'],
    ['s', 'string'],
    [1.5, 'number'],
    [true, 'bool'],
    [false, 'bool'],
    [null, 'null'],
  ])('%j → %s', (value, word) => {
    expect(goJsonKind(value)).toBe(word);
  });

  it('names reader tokens the same way', () => {
    expect((['object', 'array', 'string', 'number', 'true', 'false', 'null'] as const).map(goKindWord)).toEqual([
      'object',
      'array',
      'string',
      'number',
      'bool',
      'bool',
      'null',
    ]);
  });
});
