// admissionregistration/v1 defaults (pkg/apis/admissionregistration/v1/defaults.go): failurePolicy Fail,
// matchPolicy Equivalent, empty selectors, timeoutSeconds 10, rule scope `*`, service port 443, and for mutating
// webhooks reinvocationPolicy Never.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';

function defaultWebhook(hook: Record<string, unknown>, mutating: boolean): void {
  hook['failurePolicy'] ??= 'Fail';
  hook['matchPolicy'] ??= 'Equivalent';
  hook['namespaceSelector'] ??= {};
  hook['objectSelector'] ??= {};
  hook['timeoutSeconds'] ??= 10;
  if (mutating) hook['reinvocationPolicy'] ??= 'Never';
  if (Array.isArray(hook['rules'])) for (const rule of hook['rules']) if (isPlainObject(rule)) rule['scope'] ??= '*';
  const service = isPlainObject(hook['clientConfig']) ? hook['clientConfig']['service'] : undefined;
  if (isPlainObject(service)) service['port'] ??= 443;
}

function defaultsFor(mutating: boolean): (obj: ApiObject) => void {
  return (obj) => {
    const webhooks = obj['webhooks'];
    if (Array.isArray(webhooks)) for (const hook of webhooks) if (isPlainObject(hook)) defaultWebhook(hook, mutating);
  };
}

export const applyValidatingWebhookConfigurationDefaults = defaultsFor(false);
export const applyMutatingWebhookConfigurationDefaults = defaultsFor(true);
