import { goBase64ErrorOffset } from './go-base64';

describe('goBase64ErrorOffset (base64.StdEncoding.Decode)', () => {
  it.each([[''], ['aGVsbG8='], ['aGVsbA=='], ['aGVs\nbG8='], ['aGVsbG8=\r\n']])('%j decodes', (text) => {
    expect(goBase64ErrorOffset(text)).toBeUndefined();
  });

  it.each([
    ['!!!', 0],
    ['abc', 0],
    ['abcdabc', 4],
    ['ab=c', 2],
    ['ab=', 3],
    ['a===', 1],
    ['ab==x', 4],
    ['abcd====', 4],
  ])('%j fails at byte %d', (text, offset) => {
    expect(goBase64ErrorOffset(text)).toBe(offset);
  });
});
