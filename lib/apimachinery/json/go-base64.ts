// Where Go's base64.StdEncoding.Decode stops on a malformed []byte value in JSON (encoding/json decodes []byte so).

const ALPHABET = /[A-Za-z0-9+/]/;

function isNewline(c: string | undefined): boolean {
  return c === '\n' || c === '\r';
}

/**
 * The byte offset Go reports as `illegal base64 data at input byte N` for `text`, or undefined when it decodes:
 * four-character quanta with `=` padding, carriage returns and newlines skipped, nothing after the padding.
 */
export function goBase64ErrorOffset(text: string): number | undefined {
  let si = 0;
  while (si < text.length) {
    let j = 0;
    for (; j < 4; j++) {
      if (si === text.length) return j === 0 ? undefined : si - j;
      const c = text[si];
      si++;
      if (c !== undefined && ALPHABET.test(c)) continue;
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== '=') return si - 1;
      // Padding: one `=` after three characters, two after two.
      if (j === 0 || j === 1) return si - 1;
      if (j === 2) {
        while (si < text.length && isNewline(text[si])) si++;
        if (si === text.length) return text.length;
        if (text[si] !== '=') return si - 1;
        si++;
      }
      while (si < text.length && isNewline(text[si])) si++;
      return si < text.length ? si : undefined;
    }
  }
  return undefined;
}
