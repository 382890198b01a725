// Webhook configurations refused as kube-apiserver 1.26 refuses them: ValidateWebhookURL's texts naming the offending
// part of a URL, and a caBundle that Go's []byte decoding cannot read.
import { startTestServer, uniqueName, type TestServer } from '../helpers/test-server';

const VWC = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const WEBHOOK = {
  name: 'url.example.com',
  rules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
};

let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.stop());

describe('webhook configuration validation', () => {
  const withUrl = (url: string) => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: uniqueName('urls') },
    webhooks: [{ ...WEBHOOK, clientConfig: { url } }],
  });
  const causes = async (url: string): Promise<string[]> => {
    const res = await ts.api.post(VWC, withUrl(url));
    expect(res.status).toBe(422);
    return res.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
  };

  it('names the offending part of a webhook URL with 1.26 texts', async () => {
    expect(await causes('https:///x')).toEqual([
      'webhooks[0].clientConfig.url: Invalid value: "": host must be specified; desired format: https://host[/path]',
    ]);
    expect(await causes('http://u:p@example.com/x?a=b#frag')).toEqual([
      'webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      'webhooks[0].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "frag": fragments are not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL',
    ]);
    expect(await causes('https://example.com:port/x')).toEqual([
      'webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://example.com:port/x": invalid port ":port" after host; desired format: https://host[/path]',
    ]);
  });

  it('refuses a caBundle that is not base64 as Go decodes []byte', async () => {
    const body = withUrl('https://example.com/x');
    const res = await ts.api.post(VWC, {
      ...body,
      webhooks: [{ ...body.webhooks[0], clientConfig: { url: 'https://example.com/x', caBundle: '%%%' } }],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(
      /cannot be handled as a ValidatingWebhookConfiguration: illegal base64 data at input byte 0$/,
    );
  });
});
