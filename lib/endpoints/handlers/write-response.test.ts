import { warningHeaderValue, warningHeaderValues } from './write-response';

describe('warningHeaderValue (net.NewWarningHeader)', () => {
  it('quotes and escapes ASCII text', () => {
    expect(warningHeaderValue('unknown field "spec.x\\y"')).toBe('299 - "unknown field \\"spec.x\\\\y\\""');
  });

  it('carries non-ASCII text as its UTF-8 bytes, one per character', () => {
    const value = warningHeaderValue('unknown field "spec.名前"');
    expect(value).toBeDefined();
    expect(Buffer.from(value ?? '', 'latin1').toString('utf8')).toBe('299 - "unknown field \\"spec.名前\\""');
  });

  it.each([['line one\nline two'], ['tab\there'], ['c1 \u0085'], ['lone \ud800 surrogate']])(
    'drops %j (control characters, invalid UTF-8)',
    (text) => {
      expect(warningHeaderValue(text)).toBeUndefined();
    },
  );

  it('keeps the others of a list', () => {
    expect(warningHeaderValues(['a\nb', 'ok'])).toEqual(['299 - "ok"']);
  });
});
