// The HTTP(S) listener: TLS with optional client certificates, keep-alive as Go's server, Go's listen backlog.
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer } from 'node:net';
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

/** Go's texts (syscall.Errno) for the errors a bind can meet. */
const BIND_ERRNO_TEXTS: Record<string, string> = {
  EADDRINUSE: 'address already in use',
  EADDRNOTAVAIL: 'cannot assign requested address',
  EACCES: 'permission denied',
};

/**
 * kube-apiserver creates its listener first (SecureServingOptions.ApplyTo), so a taken port or a foreign address
 * stops it before it reads its files or touches etcd, with `failed to create listener: failed to listen on <addr>:
 * listen tcp <addr>: bind: <errno>`. This binds the port once and lets it go again, to fail the same way, as early.
 */
export async function checkListenable(port: number, bindAddress: string): Promise<void> {
  if (port === 0) return;
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err: NodeJS.ErrnoException) => {
      const address = bindAddress.includes(':') ? `[${bindAddress}]:${port}` : `${bindAddress}:${port}`;
      const text = BIND_ERRNO_TEXTS[err.code ?? ''];
      reject(
        new Error(
          `failed to create listener: failed to listen on ${address}: ${text ? `listen tcp ${address}: bind: ${text}` : err.message}`,
        ),
      );
    });
    probe.listen({ port, host: bindAddress, exclusive: true }, () => probe.close(() => resolve()));
  });
}
