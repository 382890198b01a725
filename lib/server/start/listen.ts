// The HTTP(S) listener: TLS with optional client certificates, keep-alive as Go's server, Go's listen backlog.
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { TlsFiles } from './start-files';
import { answerPlainHttpOnTls } from './plain-http-guard';

/** kube-apiserver's http.Server MaxHeaderBytes (secure_serving.go): 1 MiB of request line and headers, not Node's 16 KiB. */
const MAX_HEADER_BYTES = 1 << 20;

/** Linux's default net.core.somaxconn since 5.4. */
const LISTEN_BACKLOG = 4096;

/** Resolves once the server listens on `port` at `bindAddress`. */
export async function listen(
  listener: RequestListener,
  tlsFiles: TlsFiles | undefined,
  port: number,
  bindAddress: string,
): Promise<Server> {
  // With --client-ca-file the TLS server asks for (never requires) a client certificate and verifies it against
  // that CA; the authenticator reads the outcome, so a bad certificate is a 401 rather than a failed handshake.
  const http = tlsFiles
    ? createHttpsServer(
        {
          maxHeaderSize: MAX_HEADER_BYTES,
          cert: tlsFiles.cert,
          key: tlsFiles.key,
          ...(tlsFiles.clientCA ? { ca: tlsFiles.clientCA, requestCert: true, rejectUnauthorized: false } : {}),
        },
        listener,
      )
    : createHttpServer({ maxHeaderSize: MAX_HEADER_BYTES }, listener);
  if (tlsFiles) answerPlainHttpOnTls(http as unknown as import('node:tls').Server);
  http.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    // Go's listeners use the kernel's somaxconn as backlog (Node's default is 511): a burst of connections waits, not resets.
    http.listen(port, bindAddress, LISTEN_BACKLOG, () => {
      http.off('error', reject);
      resolve();
    });
  });
  return http;
}
