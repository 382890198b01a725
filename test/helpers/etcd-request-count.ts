// How many etcd requests of one operation a server has made for one resource, from its own /metrics
// (etcd_request_duration_seconds_count): what tests read to tell the watch cache's answers from etcd's.
import type { TestServer } from './test-server';

export async function etcdRequestCount(server: TestServer, operation: string, type: string): Promise<number> {
  const text = (await server.api.get('/metrics')).text;
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('etcd_request_duration_seconds_count{') &&
        l.includes(`operation="${operation}"`) &&
        l.includes(`type="${type}"`),
    );
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}
