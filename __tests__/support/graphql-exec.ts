/**
 * Answering a GraphQL query the way GitHub's server does it: executed by
 * graphql-js against GitHub's published SDL (schema.graphql in
 * @octokit/graphql-schema), over plain objects whose fields are values or
 * functions of the field's arguments. So aliases, fragments, @include/@skip
 * and type conditions work as they do on GitHub, and a field the schema does
 * not have fails the query. A resolver that throws a `GitHubGraphqlError`
 * makes its field null with GitHub's error (its `type`) beside the data.
 *
 * queryCost is GitHub's published rate-limit formula: every connection
 * (a field asked with `first` or `last`) needs one request per parent node
 * that could hold it; the sum over 100, rounded, at least 1.
 */
import { readFileSync } from 'node:fs';
import {
  buildSchema,
  execute,
  getNamedType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  Kind,
  parse,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

type Json = Record<string, unknown>;

let schema: GraphQLSchema | null = null;

function githubSchema(): GraphQLSchema {
  schema ??= buildSchema(readFileSync(new URL('../../node_modules/@octokit/graphql-schema/schema.graphql', import.meta.url), 'utf8'), {
    // The published SDL defines one field twice (EnterpriseOwnerInfo.repositoryDeployKeySetting): read it as GitHub serves it.
    assumeValidSDL: true,
    assumeValid: true,
  });
  return schema;
}

/** An error GitHub puts beside the data: NOT_FOUND, FORBIDDEN, INTERNAL… */
export class GitHubGraphqlError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** The answer GitHub would give: `{ data }`, or `{ data, errors }` with each error's type, path and message. */
export async function executeQuery(query: string, variables: Json, root: Json): Promise<Json> {
  const result = await execute({ schema: githubSchema(), document: parse(query), rootValue: root, variableValues: variables });
  if (!result.errors || result.errors.length === 0) return { data: result.data ?? null };
  const errors = result.errors.map((e) => {
    const original = e.originalError;
    return {
      type: original instanceof GitHubGraphqlError ? original.type : 'INTERNAL',
      path: e.path ?? [],
      message: e.message,
    };
  });
  return { data: result.data ?? null, errors };
}

function argNumber(value: ValueNode | undefined, variables: Json): number | null {
  if (!value) return null;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.VARIABLE) {
    const v = variables[value.name.value];
    return typeof v === 'number' ? v : null;
  }
  return null;
}

/** The points GitHub charges for this query (its rate-limit formula, over the connections asked for). */
export function queryCost(query: string, variables: Json = {}): number {
  const doc: DocumentNode = parse(query);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  let requests = 0;
  const walk = (set: SelectionSetNode | undefined, parents: number) => {
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FRAGMENT_SPREAD) walk(fragments.get(s.name.value)?.selectionSet, parents);
      else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet, parents);
      else {
        const size =
          argNumber(s.arguments?.find((a) => a.name.value === 'first')?.value, variables) ??
          argNumber(s.arguments?.find((a) => a.name.value === 'last')?.value, variables);
        if (size === null) walk(s.selectionSet, parents);
        else {
          requests += parents;
          walk(s.selectionSet, parents * size);
        }
      }
    }
  };
  for (const d of doc.definitions) if (d.kind === Kind.OPERATION_DEFINITION) walk(d.selectionSet, 1);
  return Math.max(1, Math.round(requests / 100));
}

/**
 * Connections asked without `first` or `last`: GitHub's docs require one on
 * every connection, even one asked only for its totalCount. The field's type
 * is read from the published SDL, so an alias or a fragment cannot hide one.
 */
export function unboundedConnections(query: string): string[] {
  const found: string[] = [];
  const info = new TypeInfo(githubSchema());
  visit(
    parse(query),
    visitWithTypeInfo(info, {
      Field(node) {
        const type = info.getType();
        if (!type) return;
        const named = getNamedType(type).name;
        if (!named.endsWith('Connection')) return;
        const args = new Set((node.arguments ?? []).map((a) => a.name.value));
        if (!args.has('first') && !args.has('last')) found.push(`${node.alias?.value ?? node.name.value} (${named})`);
      },
    }),
  );
  return found;
}
