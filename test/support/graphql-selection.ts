import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  isObjectType,
  Kind,
  type SelectionSetNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';

/**
 * Fields of object types that a document's selections on them leave out, as `Type.field`: every
 * selection set (a fragment definition's too) on a type not in `exempt` must name all of the type's
 * fields, directly or through fragment spreads.
 */
export function unselectedFields(schema: GraphQLSchema, doc: DocumentNode, exempt: readonly string[]): string[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const names = (set: SelectionSetNode): string[] =>
    set.selections.flatMap((s) => {
      if (s.kind === Kind.FIELD) return [s.name.value];
      const inner = s.kind === Kind.FRAGMENT_SPREAD ? fragments.get(s.name.value)?.selectionSet : s.selectionSet;
      return inner ? names(inner) : [];
    });
  const missing = new Set<string>();
  const info = new TypeInfo(schema);
  visit(
    doc,
    visitWithTypeInfo(info, {
      SelectionSet(set) {
        const type = info.getParentType();
        if (!isObjectType(type) || exempt.includes(type.name)) return;
        const selected = new Set(names(set));
        for (const field of Object.keys(type.getFields()))
          if (!selected.has(field)) missing.add(`${type.name}.${field}`);
      },
    }),
  );
  return [...missing].sort();
}
