// The runtime scheme as Kubernetes names it in its errors.

/** The scheme name kube-apiserver prints in "no kind is registered" errors (its legacy scheme's declaration). */
export const SCHEME_NAME = 'pkg/api/legacyscheme/scheme.go:30';

/** runtime.NewNotRegisteredErrForKind's text for the scheme. */
export function notRegisteredText(kind: string, apiVersion: string): string {
  return `no kind "${kind}" is registered for version "${apiVersion}" in scheme "${SCHEME_NAME}"`;
}
