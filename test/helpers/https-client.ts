// HTTPS requests with a trusted CA and an optional client certificate (fetch cannot present one).
import { request } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';

export interface HttpsOptions {
  ca: Buffer;
  cert?: Buffer;
  key?: Buffer;
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpsResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export function httpsRequest(method: string, url: string, options: HttpsOptions): Promise<HttpsResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        ca: options.ca,
        ...(options.cert ? { cert: options.cert, key: options.key } : {}),
        headers: options.headers ?? {},
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
