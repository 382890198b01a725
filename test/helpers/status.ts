// The Status bodies tests expect from the server, built one way.

/** A 400 BadRequest Status with `message`, as kube-apiserver writes it. */
export function badRequestStatus(message: string): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'BadRequest',
    code: 400,
  };
}
