// Stores over real etcd without a server: an admission that admits everything and a list of everything.
import type { Admission } from '../../lib/registry/generic/admission';
import { LIST_EVERYTHING } from '../../lib/registry/generic/list';

export const NO_ADMISSION: Admission = { admitCreate: async () => {}, admitDelete: async () => {} };
export const EVERYTHING = LIST_EVERYTHING;
