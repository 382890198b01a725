// The members of a JSON object found in its UTF-8 bytes without decoding it: where each key and value starts and
// ends. For compact JSON as JSON.stringify writes it (no whitespace), which is what the server stores.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** One member: its key (decoded) and its value's bytes [valueStart, valueEnd). */
export interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

class MalformedJson extends Error {}

/** Index after the string opening at `at`. */
function skipString(buf: Buffer, at: number): number {
  let from = at + 1;
  for (;;) {
    const quote = buf.indexOf(QUOTE, from);
    if (quote < 0) throw new MalformedJson('unterminated string');
    let backslashes = 0;
    for (let b = quote - 1; buf[b] === BACKSLASH; b--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Index after the value starting at `at`. */
function skipValue(buf: Buffer, at: number): number {
  const end = buf.length;
  let c = buf[at];
  if (c === QUOTE) return skipString(buf, at);
  let i = at;
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    while (i < end && (c = buf[i]) !== COMMA && c !== CLOSE_BRACE && c !== CLOSE_BRACKET) i++;
    return i;
  }
  let depth = 0;
  while (i < end) {
    c = buf[i] as number;
    if (c === QUOTE) {
      i = skipString(buf, i);
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
    i++;
  }
  throw new MalformedJson('unterminated value');
}

/** The members of the object whose `{` is at `open`, or undefined when the bytes are not compact JSON there. */
export function objectMembers(buf: Buffer, open: number): Member[] | undefined {
  if (buf[open] !== OPEN_BRACE) return undefined;
  return buf[open + 1] === CLOSE_BRACE ? [] : scanMembers(buf, open + 1, []);
}

/**
 * `members` (an object's members up to one whose value ends at `end`) with the object's members after it; undefined
 * when the bytes are not compact JSON there. So an object whose first member was scanned on its own (as its own
 * object's members) is not scanned again.
 */
export function membersAfter(buf: Buffer, end: number, members: Member[]): Member[] | undefined {
  if (buf[end] === CLOSE_BRACE) return members;
  return buf[end] === COMMA ? scanMembers(buf, end + 1, members) : undefined;
}

/** `members` with the members from the key at `at` to the object's `}`. */
function scanMembers(buf: Buffer, at: number, members: Member[]): Member[] | undefined {
  try {
    let i = at;
    for (;;) {
      if (buf[i] !== QUOTE) return undefined;
      const keyStart = i;
      i = skipString(buf, i);
      const raw = buf.toString('utf8', keyStart + 1, i - 1);
      const key = raw.includes('\\') ? (JSON.parse(buf.toString('utf8', keyStart, i)) as string) : raw;
      if (buf[i] !== COLON) return undefined;
      const valueStart = i + 1;
      i = skipValue(buf, valueStart);
      members.push({ key, keyStart, valueStart, valueEnd: i });
      if (buf[i] === CLOSE_BRACE) return members;
      if (buf[i] !== COMMA) return undefined;
      i++;
    }
  } catch (err) {
    if (err instanceof MalformedJson) return undefined;
    throw err;
  }
}
