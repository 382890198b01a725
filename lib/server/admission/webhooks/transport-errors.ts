// Node's connection and TLS failures of a webhook call in the words of Go's net/http and crypto/x509 (go1.19, the
// Go of kube-apiserver 1.26), as they follow `Post "<url>": ` in the call's error. Failures without a cheap Go
// equivalent keep Node's message.
import { isIP } from 'node:net';

interface NodeNetError extends Error {
  code?: string;
  address?: string;
  port?: number;
  hostname?: string;
  host?: string;
  cert?: { subjectaltname?: string; subject?: { CN?: string | string[] } };
}

/** Node's certificate-chain codes that Go reports as x509.UnknownAuthorityError. */
const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

const hostPort = (host: string, port: number | undefined): string =>
  `${isIP(host) === 6 ? `[${host}]` : host}:${port ?? ''}`;

/** x509.HostnameError's text for the certificate's SANs and the name asked for. */
function hostnameErrorText(host: string, cert: NodeNetError['cert']): string {
  const sans = (cert?.subjectaltname ?? '')
    .split(', ')
    .filter((s) => s !== '')
    .map((s) => {
      const colon = s.indexOf(':');
      return { type: s.slice(0, colon), value: s.slice(colon + 1) };
    });
  if (sans.length === 0) {
    const cn = cert?.subject?.CN;
    if (typeof cn === 'string' && cn.toLowerCase() === host.toLowerCase())
      return 'x509: certificate relies on legacy Common Name field, use SANs instead';
  }
  let valid: string;
  if (isIP(host) !== 0) {
    const ips = sans.filter((s) => s.type === 'IP Address').map((s) => s.value);
    if (ips.length === 0) return `x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
    valid = ips.join(', ');
  } else
    valid = sans
      .filter((s) => s.type === 'DNS')
      .map((s) => s.value)
      .join(', ');
  if (valid === '') return `x509: certificate is not valid for any names, but wanted to match ${host}`;
  return `x509: certificate is valid for ${valid}, not ${host}`;
}

/** The text Go's client gives for the failure `err` of a request to `url`. */
export function goTransportError(err: Error, url: URL): string {
  const e = err as NodeNetError;
  const code = e.code ?? '';
  if (code === 'ECONNREFUSED' && e.address !== undefined)
    return `dial tcp ${hostPort(e.address, e.port)}: connect: connection refused`;
  if (code === 'ENOTFOUND') return `dial tcp: lookup ${e.hostname ?? url.hostname}: no such host`;
  if (UNKNOWN_AUTHORITY.has(code)) return 'x509: certificate signed by unknown authority';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return hostnameErrorText(e.host ?? url.hostname, e.cert);
  // The server closed the connection before answering: Go's transport reads end of file.
  if (code === 'ECONNRESET' && e.message === 'socket hang up') return 'EOF';
  return e.message;
}
