// What a list asks for and gets back, as the registry's callers name it; storage decides how it is read (the
// resourceVersion semantics, paging and continue tokens live in storage/versioned-reads.ts and cacher/cached-storage.ts).
import type { ListPage, ListRequest } from '../../storage/storage';

/** Already-validated list options (see endpoints/handlers/list-options.ts). */
export type ListParams = ListRequest;

/** Every object, latest state, one page: what controllers list. */
export const LIST_EVERYTHING: Readonly<ListParams> = {
  hasSelector: false,
  limit: 0,
  continueToken: '',
  resourceVersionMatch: '',
};

export type ListOutcome = ListPage;
