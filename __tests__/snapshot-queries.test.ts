/**
 * The gate's snapshot queries against GitHub's published GraphQL schema and
 * GitHub's published pricing: each validates (the SDL, where the package's
 * introspection JSON lags it), and one PR — up to the ten a query reads —
 * stays within the points issue 28 allows. The pricing itself is held to the
 * worked example of GitHub's documentation, so the fake's figures are
 * GitHub's.
 */
import { readFileSync } from 'node:fs';
import { validate as validateIntrospected } from '@octokit/graphql-schema';
import { buildSchema, parse, validate } from 'graphql';
import { gateQuery, ISSUE_QUERY, PULLS_PER_QUERY } from '../src/github/snapshot.js';
import { queryCost } from './support/graphql-exec.js';

const sdl = buildSchema(readFileSync(new URL('../node_modules/@octokit/graphql-schema/schema.graphql', import.meta.url), 'utf8'), {
  assumeValidSDL: true,
});

/** A query's errors: the introspection JSON first, the SDL for a field only the SDL has. */
function errorsOf(query: string): string[] {
  const errors = validateIntrospected(query).map((e) => e.message);
  if (errors.every((m) => /^Cannot query field/.test(m)) && validate(sdl, parse(query)).length === 0) return [];
  return errors;
}

test("GitHub's documented example costs 51 points (1 + 100 + 5,000 requests, over 100)", () => {
  const example = `query {
    viewer {
      login
      repositories(first: 100) {
        edges { node { id issues(first: 50) { edges { node { id labels(first: 60) { edges { node { id name } } } } } } } }
      }
    }
  }`;
  expect(queryCost(example)).toBe(51);
  // At least one point, however small the query.
  expect(queryCost('query { viewer { login } }')).toBe(1);
});

test('every shape of the gate query is valid against the schema', () => {
  for (const [pulls, commits, open] of [
    [1, 0, true],
    [3, 0, false],
    [PULLS_PER_QUERY, 1, true],
    [0, 1, false],
  ] as const)
    expect(errorsOf(gateQuery(pulls, commits, open))).toEqual([]);
  expect(errorsOf(ISSUE_QUERY)).toEqual([]);
  // A field GitHub does not have is caught: the check can fail.
  expect(errorsOf(gateQuery(1, 0, false).replace('headRefOid', 'headSha'))).not.toEqual([]);
});

test('points: one PR (up to 100 comments) costs 1; three PRs 2; the ten a query reads at most 5', () => {
  const vars = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, i + 1]));
  const one = queryCost(gateQuery(1, 0, true), vars(1));
  const three = queryCost(gateQuery(3, 0, true), vars(3));
  const ten = queryCost(gateQuery(PULLS_PER_QUERY, 1, true), vars(PULLS_PER_QUERY));
  expect(one).toBe(1);
  expect(three).toBeLessThanOrEqual(2);
  expect(ten).toBeLessThanOrEqual(5);
  expect(queryCost(ISSUE_QUERY)).toBe(1);
});

test("a connection asked without first or last is one GitHub's docs refuse: the fake server names it, alias or not", async () => {
  const { unboundedConnections } = await import('./support/graphql-exec.js');
  expect(unboundedConnections('query { repository(owner: "o", name: "r") { open: issues { totalCount } } }')).toEqual([
    'open (IssueConnection)',
  ]);
  expect(unboundedConnections('query { repository(owner: "o", name: "r") { issues(last: 1) { totalCount } } }')).toEqual([]);
});
