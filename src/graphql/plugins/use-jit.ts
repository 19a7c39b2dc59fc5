import { useGraphQlJit } from '@envelop/graphql-jit';
import { type DocumentNode, type ExecutionArgs, Kind, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Per document, the document reduced to one operation (with all fragments), by operation name. */
const reduced = new WeakMap<DocumentNode, Map<string, DocumentNode>>();

/**
 * The document that holds only the operation `execute` will run, plus the fragments; the same
 * object for the same document and name, and `document` itself when it has one operation.
 */
export function operationDocument(document: DocumentNode, operationName: string | null | undefined): DocumentNode {
  if (!operationName || document.definitions.length === 1) return document;
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length === 1) return document;
  let byName = reduced.get(document);
  if (!byName) reduced.set(document, (byName = new Map()));
  let doc = byName.get(operationName);
  if (!doc) {
    const chosen = operations.find((o) => o.name?.value === operationName);
    if (!chosen) return document;
    const definitions = document.definitions.filter((d) => d === chosen || d.kind !== Kind.OPERATION_DEFINITION);
    byName.set(operationName, (doc = { ...document, definitions }));
  }
  return doc;
}

/**
 * Executes operations with graphql-jit (@envelop/graphql-jit). That plugin caches compiled queries
 * by document only, so a second operation of the same document would run the first one: each
 * operation is handed to it as a document of its own ({@link operationDocument}). Compilation
 * errors are returned in the result (and masked there if internal), not printed to the console.
 * Subscriptions run on graphql-js: graphql-jit 0.8 hands a subscription field's `subscribe` the
 * operation's variables as its arguments, so `pricesPublished(zones: ["DE_LU"])` watched every zone
 * and arguments were never validated.
 */
export function useJit(): Plugin[] {
  const { onSubscribe: _jitSubscribe, ...jit } = useGraphQlJit({}, { onError: () => undefined }) as Plugin;
  const perOperation: Plugin = {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((args: ExecutionArgs) =>
        executeFn({ ...args, document: operationDocument(args.document, args.operationName) }),
      );
    },
  };
  return [jit, perOperation];
}
