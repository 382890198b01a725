// Ensures the built-in namespaces exist (kube-apiserver's bootstrap controller), re-checked periodically.
import type { Logger } from 'pino';
import { StatusError } from '../../../apimachinery/errors';
import { KUBE_APISERVER_MANAGER, trackedAs } from '../../generic/internal-field-manager';
import type { GenericStore } from '../../generic/store';

export const BUILT_IN_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
const RECHECK_INTERVAL_MS = 60_000;

export async function ensureNamespace(
  namespaces: GenericStore,
  name: string,
  applyDefaults: (obj: Parameters<GenericStore['create']>[1]) => void,
): Promise<void> {
  const obj = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
  applyDefaults(obj);
  try {
    await namespaces.create('', obj, {
      dryRun: false,
      transform: trackedAs(KUBE_APISERVER_MANAGER, namespaces.definition),
    });
  } catch (err) {
    if (err instanceof StatusError && err.code === 409) return; // another replica (or an earlier run) made it
    throw err;
  }
}

/** Creates the built-in namespaces now, then keeps re-creating any that disappear. Returns a stop function. */
export async function bootstrapNamespaces(
  namespaces: GenericStore,
  applyDefaults: (obj: Parameters<GenericStore['create']>[1]) => void,
  log: Logger,
): Promise<() => void> {
  const ensureAll = async (): Promise<void> => {
    for (const name of BUILT_IN_NAMESPACES) await ensureNamespace(namespaces, name, applyDefaults);
  };
  await ensureAll();
  const timer = setInterval(
    () => ensureAll().catch((err: unknown) => log.warn({ err }, 'ensuring built-in namespaces failed')),
    RECHECK_INTERVAL_MS,
  );
  timer.unref();
  return () => clearInterval(timer);
}
