// End-to-end: real kubectl reading the served OpenAPI v3 documents: `explain` finds kinds and fields, and
// `--validate` detects server-side field validation (so unknown fields are reported by the server, not kubectl).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBinaryServer, type BinaryServer } from '../helpers/binary-server';
import { Kubectl } from '../helpers/kubectl';

let server: BinaryServer;
let kubectl: Kubectl;
const ns = `e2e-explain-${process.pid}`;

beforeAll(async () => {
  server = await startBinaryServer();
  kubectl = new Kubectl(server.url);
  await kubectl.ok('create', 'namespace', ns);
}, 90_000);

afterAll(async () => {
  kubectl?.cleanup();
  await server?.stop();
}, 60_000);

/** explain's output with every run of white space (wrapping, indentation, tabs) as one space. */
const flat = (out: string): string => out.replace(/\s+/g, ' ');

/** The `name <type>` lines of explain's FIELDS section. */
function fields(out: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of out.matchAll(/^ {2}(\w+)\t<([^>]+)>/gm)) found.set(m[1] ?? '', m[2] ?? '');
  return found;
}

describe('kubectl explain', () => {
  it('prints the fields of deployment.spec with their types and required marks', async () => {
    const out = await kubectl.ok('explain', 'deployment.spec');
    expect(out).toMatch(/^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n/);
    expect(out).toContain('FIELD: spec <DeploymentSpec>');
    const spec = fields(out);
    expect(
      Object.fromEntries(
        ['replicas', 'selector', 'template', 'strategy', 'minReadySeconds'].map((f) => [f, spec.get(f)]),
      ),
    ).toEqual({
      replicas: 'integer',
      selector: 'LabelSelector',
      template: 'PodTemplateSpec',
      strategy: 'DeploymentStrategy',
      minReadySeconds: 'integer',
    });
    expect(out).toMatch(/^ {2}selector\t<LabelSelector> -required-$/m);
  });

  it('follows references through lists: deployment.spec.template.spec.containers', async () => {
    const out = await kubectl.ok('explain', 'deployment.spec.template.spec.containers');
    expect(out).toContain('FIELD: containers <[]Container>');
    const container = fields(out);
    expect(container.get('image')).toBe('string');
    expect(container.get('ports')).toBe('[]ContainerPort');
    expect(container.get('resources')).toBe('ResourceRequirements');
    expect(out).toMatch(/^ {2}name\t<string> -required-$/m);
  });

  it('explains a kind of the orch-branded flowcontrol group, and of its Kubernetes name (what a bare name finds)', async () => {
    const out = await kubectl.ok('explain', 'flowschemas.flowcontrol.apiserver.orch.io');
    // The group's preferred version in 1.26 is v1beta2.
    expect(out).toMatch(/^GROUP:\s+flowcontrol\.apiserver\.orch\.io\nKIND:\s+FlowSchema\nVERSION:\s+v1beta2\n/);
    expect([...fields(out).keys()]).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    const bare = await kubectl.ok('explain', 'flowschemas');
    expect(bare).toMatch(/^GROUP:\s+flowcontrol\.apiserver\.k8s\.io\nKIND:\s+FlowSchema\nVERSION:\s+v1beta2\n/);
    expect([...fields(bare).keys()]).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  });

  it('prints field descriptions (OpenAPI v3): deployment.spec.replicas', async () => {
    const out = await kubectl.ok('explain', 'deployment.spec.replicas');
    expect(out).toContain('FIELD: replicas <integer>');
    expect(out).toMatch(/DESCRIPTION:\n\s+How many pods should run\. Defaults to 1\./);
    expect(out).not.toContain('<no description>');
  });

  it('prints the descriptions of flowschema.spec (field and type) with --recursive, and of hpa.spec', async () => {
    const recursive = await kubectl.ok('explain', 'flowschema.spec', '--recursive');
    expect(flat(recursive)).toContain(
      'DESCRIPTION: Which requests match, where they go and how they are split into flows. How a FlowSchema matches and classifies requests. FIELDS:',
    );
    expect(recursive).toMatch(/^ {6}serviceAccount\t<ServiceAccountSubject>$/m);
    const hpa = await kubectl.ok('explain', 'hpa.spec');
    expect(flat(hpa)).toContain('maxReplicas <integer> -required- The most replicas the autoscaler may set.');
    expect(hpa).not.toContain('<no description>');
    const v2 = await kubectl.ok('explain', 'hpa.spec.behavior.scaleDown.selectPolicy', '--api-version=autoscaling/v2');
    expect(flat(v2)).toContain('Which policy wins when several apply');
  });

  it('prints descriptions read from /openapi/v2 (gnostic protobuf) too', async () => {
    const out = flat(await kubectl.ok('explain', 'deployment.spec.strategy', '--output=plaintext-openapiv2'));
    expect(out).toContain('DESCRIPTION: How existing pods are replaced when the template changes');
    expect(out).toContain('rollingUpdate <Object> Limits of a rolling update.');
    expect(flat(await kubectl.ok('explain', 'namespace.status.phase', '--output=plaintext-openapiv2'))).toContain(
      '`Terminating` once its deletion has started',
    );
  });

  it('reports a field that does not exist', async () => {
    const res = await kubectl.run(['explain', 'deployment.spec.nosuchfield']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('field "nosuchfield" does not exist');
  });
});

describe('kubectl apply (client-side)', () => {
  it("merges a changed container by name using the schema's patch strategy and merge key", async () => {
    const file = join(kubectl.workDir, 'applied.yaml');
    const write = (image: string): void =>
      writeFileSync(
        file,
        [
          'apiVersion: apps/v1',
          'kind: Deployment',
          `metadata: {name: applied, namespace: ${ns}}`,
          'spec:',
          '  selector: {matchLabels: {app: a}}',
          '  template:',
          '    metadata: {labels: {app: a}}',
          `    spec: {containers: [{name: web, image: '${image}'}, {name: side, image: 'busybox:1'}]}`,
          '',
        ].join('\n'),
      );
    write('nginx:1.24');
    await kubectl.ok('apply', '-f', file);
    write('nginx:1.25');
    const res = await kubectl.run(['apply', '-f', file, '-v=8']);
    expect(res.code).toBe(0);
    // The strategic merge patch addresses the container by its merge key, which kubectl read from the OpenAPI v3 schema.
    expect(res.stderr).not.toContain('error calculating patch');
    const logged = res.stderr.replace(/\\/g, '').replace(/"/g, '');
    expect(logged).toContain('$setElementOrder/containers:[{name:web},{name:side}]');
    const images = await kubectl.ok(
      '-n',
      ns,
      'get',
      'deployment',
      'applied',
      '-o',
      'jsonpath={.spec.template.spec.containers[*].image}',
    );
    expect(images).toBe('nginx:1.25 busybox:1');
  });
});

describe('kubectl --validate', () => {
  function manifest(name: string): string {
    const file = join(kubectl.workDir, `${name}.yaml`);
    writeFileSync(
      file,
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        `metadata: {name: ${name}, namespace: ${ns}}`,
        'spec:',
        '  foo: 1',
        '  selector: {matchLabels: {app: x}}',
        '  template:',
        '    metadata: {labels: {app: x}}',
        '    spec: {containers: [{name: c, image: nginx}]}',
        '',
      ].join('\n'),
    );
    return file;
  }

  it('strict: kubectl detects server-side validation and the server rejects the unknown field', async () => {
    const res = await kubectl.run(['create', '--validate=strict', '-f', manifest('strict'), '-v=6']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('Error from server (BadRequest)');
    expect(res.stderr).toContain('strict decoding error: unknown field "spec.foo"');
    expect(res.stderr).toMatch(/POST http\S+\/deployments\?\S*fieldValidation=Strict/);
    expect((await kubectl.run(['-n', ns, 'get', 'deployment', 'strict'])).code).not.toBe(0);
  });

  it('warn: the server accepts the object and kubectl prints its warning', async () => {
    const res = await kubectl.run(['create', '--validate=warn', '-f', manifest('warned')]);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('Warning: unknown field "spec.foo"');
    expect(res.stdout).toContain('deployment.apps/warned created');
  });
});
