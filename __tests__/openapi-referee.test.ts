/** The referee itself can fail: requests and responses GitHub's description rejects are caught. */
import { OpenApiDescription, conform, ghesVersions } from './support/openapi.js';

let api: OpenApiDescription;
beforeAll(() => {
  api = new OpenApiDescription('api.github.com.deref.json', 'api.github.com');
});

const q = (s = '') => new URLSearchParams(s);

test('an undocumented route is flagged', () => {
  expect(api.checkRequest('GET', '/repos/o/r/issues/1/annotations', q(), undefined, false)).toEqual([
    'api.github.com: GET /repos/o/r/issues/1/annotations is not a documented route',
  ]);
  expect(api.checkRequest('PUT', '/repos/o/r/issues/comments/5', q(), { body: 'x' }, true)[0]).toContain('not a documented route');
});

test('literal segments win over parameters', () => {
  expect(api.match('GET', '/repos/o/r/issues/comments')?.route.template).toBe('/repos/{owner}/{repo}/issues/comments');
  expect(api.match('GET', '/repos/o/r/issues/7')?.route.template).toBe('/repos/{owner}/{repo}/issues/{issue_number}');
});

test('a body the spec rejects, a missing body, an undocumented or ill-typed parameter are flagged', () => {
  expect(api.checkRequest('POST', '/repos/o/r/issues/1/comments', q(), { text: 'x' }, true)[0]).toContain('request body rejected');
  expect(api.checkRequest('POST', '/repos/o/r/issues/1/comments', q(), undefined, false)[0]).toContain('request body is required');
  expect(api.checkRequest('GET', '/repos/o/r/issues/1/comments', q('per_page=100&sort=asc'), undefined, false)).toEqual([
    'api.github.com: GET /repos/{owner}/{repo}/issues/{issue_number}/comments: undocumented query parameter "sort"',
  ]);
  expect(api.checkRequest('GET', '/repos/o/r/issues/abc', q(), undefined, false)[0]).toContain(
    'path parameter "issue_number"=abc rejected',
  );
  expect(api.checkRequest('POST', '/repos/o/r/issues/1/comments', q(), { body: 'ok' }, true)).toEqual([]);
});

test('responses are held to the schema', () => {
  expect(api.checkResponse('GET', '/repos/o/r/issues/comments/1', 200, { id: 'one' })[0]).toContain('does not match the schema');
  const schema = api.responseSchema('GET', '/repos/o/r/issues/comments/1', 200);
  const good = conform(schema, { id: 1, body: 'x', author_association: 'MEMBER' });
  expect(api.checkResponse('GET', '/repos/o/r/issues/comments/1', 200, good)).toEqual([]);
  expect(api.checkResponse('GET', '/repos/o/r/issues/comments/1', 200, { ...good, author_association: 'BOSS' })[0]).toContain(
    'author_association',
  );
});

test('the oldest GHES description is available for request checks', () => {
  const versions = ghesVersions();
  expect(versions.length).toBeGreaterThan(0);
  const ghes = new OpenApiDescription(`ghes-${versions[0]}.deref.json`, `GHES ${versions[0]}`);
  expect(ghes.checkRequest('GET', '/repos/o/r/issues/1/comments', q('per_page=100&page=2'), undefined, false)).toEqual([]);
});
