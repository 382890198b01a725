import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { StatusError } from '../../apimachinery/errors';
import { writeError } from './write-status';

describe('writeError', () => {
  let server: Server;
  let thrown: unknown;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const code = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('code'));
      try {
        writeError(
          res,
          new StatusError(code, 'Forbidden', 'denied by a webhook'),
          pino({ level: 'silent' }),
          undefined,
          false,
        );
      } catch (err) {
        thrown = err;
        res.destroy();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = async (code: number): Promise<{ status: number; body: { code: number; message: string } }> => {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/?code=${code}`);
    return { status: res.status, body: (await res.json()) as { code: number; message: string } };
  };

  it('writes a code HTTP can carry as it is, 600–999 included (Go writes those too)', async () => {
    expect(await get(403)).toMatchObject({ status: 403, body: { code: 403, message: 'denied by a webhook' } });
    expect(await get(999)).toMatchObject({ status: 999 });
  });

  it.each([1000, 42, -1])('answers a code HTTP cannot carry (%d) with a 500 Status, never throwing', async (code) => {
    const res = await get(code);
    expect(thrown).toBeUndefined();
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({
      code: 500,
      message: `Internal error occurred: status code ${code} is not a valid HTTP status code`,
    });
  });
});
