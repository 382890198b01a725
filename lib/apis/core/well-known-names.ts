// Names the core API reserves for namespaces (well_known_labels.go, the namespace finalizer), in orch form.

/**
 * The finalizer the namespace controller owns in `spec.finalizers`: `kubernetes` upstream; the
 * project's naming rule (the brand word becomes `orch`) makes it `orch`.
 */
export const NAMESPACE_FINALIZER = 'orch';
/** The upstream token, still accepted as a standard finalizer name. */
export const NAMESPACE_FINALIZER_UPSTREAM = 'kubernetes';

/** v1.LabelMetadataName (`kubernetes.io/metadata.name`) under the orch domain rule. */
export const LABEL_METADATA_NAME = 'orch.io/metadata.name';

export const NAMESPACE_ACTIVE = 'Active';
export const NAMESPACE_TERMINATING = 'Terminating';
