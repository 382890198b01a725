// What users read in YAML and pretty JSON, and how YAML bodies with several documents or tabs decode: as a 1.26 server.
import { startTestServer, uniqueName, type TestServer } from '../helpers/test-server';

let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.stop());

async function send(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; contentType: string | null; text: string }> {
  const res = await fetch(`${ts.url}${path}`, init);
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
}

const yamlBody = (text: string): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/yaml', Accept: 'application/yaml' },
  body: text,
});

describe('Accept: application/yaml', () => {
  it('writes an object with sorted keys, unindented sequences and quoted timestamps', async () => {
    const res = await send('/api/v1/namespaces/default', { headers: { Accept: 'application/yaml' } });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/yaml');
    expect(res.text).toMatch(
      /^apiVersion: v1\nkind: Namespace\nmetadata:\n {2}creationTimestamp: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"\n {2}labels:\n/,
    );
    expect(res.text).toContain('\n  managedFields:\n  - apiVersion: v1\n    fieldsType: FieldsV1\n');
    expect(res.text).toMatch(
      /\n {2}name: default\n {2}resourceVersion: "\d+"\n {2}uid: [0-9a-f-]+\nspec:\n {2}finalizers:\n {2}- orch\nstatus:\n {2}phase: Active\n$/,
    );
  });

  it('writes a list with its items under `items:`', async () => {
    const res = await send('/api/v1/namespaces?limit=1', { headers: { Accept: 'application/yaml' } });
    expect(res.text).toMatch(/^apiVersion: v1\nitems:\n- metadata:\n/);
    expect(res.text).toMatch(
      /\nkind: NamespaceList\nmetadata:\n {2}continue: \S+\n {2}remainingItemCount: \d+\n {2}resourceVersion: "\d+"\n$/,
    );
  });

  it('writes an error as a Status', async () => {
    const res = await send('/api/v1/namespaces/nope', { headers: { Accept: 'application/yaml' } });
    expect(res.status).toBe(404);
    expect(res.text).toBe(
      'apiVersion: v1\ncode: 404\ndetails:\n  kind: namespaces\n  name: nope\nkind: Status\nmessage: namespaces "nope" not found\nmetadata: {}\nreason: NotFound\nstatus: Failure\n',
    );
  });
});

describe('?pretty=true', () => {
  it('indents JSON by two spaces and ends without a newline (json.MarshalIndent), the compact form with one', async () => {
    const pretty = await send('/api/v1/namespaces/nope?pretty=true');
    expect(pretty.text).toBe(
      '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "namespaces \\"nope\\" not found",\n  "reason": "NotFound",\n  "details": {\n    "name": "nope",\n    "kind": "namespaces"\n  },\n  "code": 404\n}',
    );
    const compact = await send('/api/v1/namespaces/nope', { headers: { 'User-Agent': 'qa' } });
    expect(compact.text.endsWith('}\n')).toBe(true);
  });
});

describe('YAML request bodies', () => {
  it('decode the first document only, as yaml.v2 Unmarshal does (later ones are not even checked)', async () => {
    const [first, second] = [uniqueName('first'), uniqueName('second')];
    const res = await send(
      '/api/v1/namespaces',
      yamlBody(
        `---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${first}\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${second}\n---\nnot: [valid\n`,
      ),
    );
    expect(res.status).toBe(201);
    expect(res.text).toContain(`\n  name: ${first}\n`);
    expect((await send(`/api/v1/namespaces/${second}`)).status).toBe(404);
  });

  it('reject a tab indenting a line with yaml.v2 text', async () => {
    const res = await send(
      '/api/v1/namespaces',
      yamlBody('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: tabbed\n  labels:\n\ta: b\n'),
    );
    expect(res.status).toBe(400);
    expect(res.text).toContain(
      "message: 'error converting YAML to JSON: yaml: line 6: found character that cannot\n  start any token'\n",
    );
  });
});
