// The parts of Go's net/url.Parse that webhook URL validation reads (scheme, host, user information, fragment,
// raw query), with its error texts for what it refuses.
import { goQuote } from '../../apimachinery/field/errors';

export interface GoUrl {
  scheme: string;
  host: string;
  /** url.Userinfo.String() when the URL has user information (`user` or `user:password`), else undefined. */
  user: string | undefined;
  fragment: string;
  rawQuery: string;
}

class UrlError extends Error {}

/** Go's unescape in a given mode: `%XX` decoded, a bad escape refused as `invalid URL escape "%zz"`. */
function unescape(s: string, mode: 'path' | 'fragment' | 'host'): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i] ?? '';
    if (c === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new UrlError(`invalid URL escape "${s.slice(i, i + 3)}"`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (mode === 'host' && !/[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"]/.test(c) && c.charCodeAt(0) < 0x80) {
      throw new UrlError(`invalid character "${c}" in host name`);
    } else bytes.push(...Buffer.from(c, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The scheme (getScheme) and what follows its colon; no scheme when the text does not start with one. */
function splitScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] ?? '';
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new UrlError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

/** parseHost: a bracketed IPv6 literal or a name, each with an optional `:port` of digits. */
function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new UrlError("missing ']' in host");
    const port = host.slice(close + 1);
    if (!/^(:[0-9]*)?$/.test(port)) throw new UrlError(`invalid port "${port}" after host`);
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && !/^:[0-9]*$/.test(host.slice(colon)))
      throw new UrlError(`invalid port "${host.slice(colon)}" after host`);
  }
  return unescape(host, 'host');
}

const USERINFO = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

/** url.Parse of `raw`; throws Go's `parse "<raw>": …` text when it refuses it. */
export function parseGoUrl(raw: string): GoUrl {
  try {
    const hash = raw.indexOf('#');
    const main = hash < 0 ? raw : raw.slice(0, hash);
    const fragment = hash < 0 ? '' : unescape(raw.slice(hash + 1), 'fragment');
    if ([...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
      throw new UrlError('net/url: invalid control character in URL');
    const [scheme, afterScheme] = splitScheme(main);
    let rest = afterScheme;
    let rawQuery = '';
    if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) rest = rest.slice(0, -1);
    else {
      const q = rest.indexOf('?');
      if (q >= 0) [rest, rawQuery] = [rest.slice(0, q), rest.slice(q + 1)];
    }
    const result: GoUrl = { scheme: scheme.toLowerCase(), host: '', user: undefined, fragment, rawQuery };
    if (!rest.startsWith('/')) {
      if (scheme !== '') return result; // opaque: no host
      const colon = rest.indexOf(':');
      const slash = rest.indexOf('/');
      if (colon >= 0 && (slash < 0 || colon < slash))
        throw new UrlError('first path segment in URL cannot contain colon');
    }
    if (rest.startsWith('//')) {
      const authorityEnd = rest.indexOf('/', 2);
      const authority = authorityEnd < 0 ? rest.slice(2) : rest.slice(2, authorityEnd);
      rest = authorityEnd < 0 ? '' : rest.slice(authorityEnd);
      const at = authority.lastIndexOf('@');
      if (at >= 0) {
        const userinfo = authority.slice(0, at);
        if (!USERINFO.test(userinfo)) throw new UrlError('net/url: invalid userinfo');
        result.user = userinfo;
      }
      result.host = parseHost(authority.slice(at + 1));
    }
    unescape(rest, 'path');
    return result;
  } catch (err) {
    if (err instanceof UrlError) throw new Error(`parse ${goQuote(raw)}: ${err.message}`);
    throw err;
  }
}
