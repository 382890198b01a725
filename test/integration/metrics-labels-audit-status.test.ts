// Operational surface: request metrics only for routes that exist (bounded labels, health with an empty component), audit Status of failures.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, startTestServer, type TestServer } from '../helpers/test-server';

const auditPath = join(mkdtempSync(join(tmpdir(), 'audit-')), 'audit.log');
let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer([`--audit-log-path=${auditPath}`]);
});
afterAll(() => ts.stop());

async function requestSamples(): Promise<string[]> {
  return (await ts.api.get('/metrics')).text.split('\n').filter((l) => l.startsWith('apiserver_request_total{'));
}

describe('apiserver_request_total label values', () => {
  it('records nothing for paths no route serves, so clients cannot create label values', async () => {
    const paths = [
      '/random-a1',
      '/x/y/z',
      '/healthz/bogus-check',
      '/apis/apps/v1/foos-q9',
      '/apis/apps/v1/namespaces/default/deployments/d/bogus-sub',
      '/apis/nogroup/v1/things',
      '/version',
      '/openapi/v3',
    ];
    for (const path of paths) await ts.api.get(path);
    expect((await ts.api.request('PUT', '/apis/apps/v1/namespaces/default/deployments')).status).toBe(405);
    const samples = await requestSamples();
    for (const needle of ['random-a1', '/x/y/z', 'bogus', 'foos-q9', 'nogroup', '/version', '/openapi']) {
      expect(samples.filter((l) => l.includes(needle))).toEqual([]);
    }
    expect(samples.filter((l) => l.includes('verb="PUT"') && l.includes('scope="namespace"'))).toEqual([]);
  });

  it('records the health endpoints with the path as subresource and an empty component', async () => {
    expect((await ts.api.get('/livez')).status).toBe(200);
    const samples = await requestSamples();
    expect(
      samples.some((l) =>
        l.startsWith(
          'apiserver_request_total{verb="GET",dry_run="",group="",version="",resource="",subresource="/livez",scope="",component="",code="200"}',
        ),
      ),
    ).toBe(true);
  });

  it('still records requests a route serves, also when they fail (404 of a missing object)', async () => {
    expect((await ts.api.get('/apis/apps/v1/namespaces/default/deployments/absent-m')).status).toBe(404);
    const samples = await requestSamples();
    expect(
      samples.some(
        (l) =>
          l.includes('verb="GET"') &&
          l.includes('resource="deployments"') &&
          l.includes('scope="resource"') &&
          l.includes('component="apiserver"') &&
          l.includes('code="404"'),
      ),
    ).toBe(true);
  });

  it('labels dryRun values other than All as invalid (cleanDryRun)', async () => {
    await ts.api.get('/apis/apps/v1/namespaces/default/deployments?dryRun=chosen-by-client');
    const samples = await requestSamples();
    expect(samples.filter((l) => l.includes('chosen-by-client'))).toEqual([]);
    expect(samples.some((l) => l.includes('verb="LIST"') && l.includes('dry_run="invalid"'))).toBe(true);
  });
});

describe('audit responseStatus', () => {
  it('carries the failure Status fields of a 404, and just the code of a success', async () => {
    const missing = await ts.api.get('/apis/apps/v1/namespaces/default/deployments/absent-audit');
    expect(missing.status).toBe(404);
    const ok = await ts.api.get('/api/v1/namespaces/default');
    const ids = [missing.headers.get('audit-id'), ok.headers.get('audit-id')];
    let events: Array<Record<string, unknown>> = [];
    await eventually(
      async () => {
        events = readFileSync(auditPath, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((e) => ids.includes(e['auditID'] as string));
        return events.length === 2;
      },
      5000,
      'audit lines',
    );
    const byId = new Map(events.map((e) => [e['auditID'], e]));
    expect(byId.get(ids[0])?.['responseStatus']).toEqual({
      metadata: {},
      status: 'Failure',
      message: 'deployments.apps "absent-audit" not found',
      reason: 'NotFound',
      details: { name: 'absent-audit', group: 'apps', kind: 'deployments' },
      code: 404,
    });
    expect(byId.get(ids[1])?.['responseStatus']).toEqual({ metadata: {}, code: 200 });
  });
});
