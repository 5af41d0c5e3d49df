/**
 * Gist URLs in the shapes pipelines write them (implementation-notes.md §5):
 * gist.github.com/{user}/{id}, gist.github.com/{id}, a trailing `/`,
 * `#file-…`, `.git`, `/raw/…`, gist.githubusercontent.com/{user}/{id}/raw/…,
 * and GitHub Enterprise Server's gist.{host}/… and {host}/gist/….
 */

const ID = /^(?:[0-9a-f]{20,40}|\d{1,12})$/;

/** The URL a text names, or null when it names none. */
function urlOf(value: string): URL | null {
  try {
    return new URL(value.trim());
  } catch {
    return null;
  }
}

/** The gist id a URL points to, or null when it is not a gist URL. */
export function gistIdFromUrl(value: string): string | null {
  const url = urlOf(value);
  if (url === null) return null;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  let segments = url.pathname.split('/').filter(Boolean);
  const gistHost = url.hostname.startsWith('gist.');
  if (!gistHost) {
    if (segments[0] !== 'gist') return null;
    segments = segments.slice(1);
  }
  const clean = (s: string | undefined) => (s ?? '').replace(/\.git$/, '');
  if (url.hostname.startsWith('gist.githubusercontent.')) {
    const id = clean(segments[1]);
    return ID.test(id) ? id : null;
  }
  const first = clean(segments[0]);
  if (ID.test(first)) return first;
  const second = clean(segments[1]);
  return ID.test(second) ? second : null;
}

const URL_IN_TEXT = /https?:\/\/[^\s<>()"'`\][]+/g;

/** Every gist URL in free text (an index gist's files), with its id. */
export function gistUrlsInText(text: string): Array<{ url: string; id: string }> {
  const out: Array<{ url: string; id: string }> = [];
  for (const m of text.matchAll(URL_IN_TEXT)) {
    const url = m[0].replace(/[.,;:!?]+$/, '');
    const id = gistIdFromUrl(url);
    if (id) out.push({ url, id });
  }
  return out;
}

/**
 * The GitHub a gist URL belongs to, by host: `github.com` for gist.github.com
 * and gist.githubusercontent.com, `HOST` for gist.HOST and HOST/gist/…; null
 * when it is no URL.
 */
export function gistHostOf(value: string): string | null {
  const url = urlOf(value);
  if (url === null) return null;
  const host = url.hostname.toLowerCase();
  if (host === 'gist.githubusercontent.com') return 'github.com';
  return host.startsWith('gist.') ? host.slice('gist.'.length) : host;
}

/**
 * Whether a gist URL is on the GitHub `serverUrl` names (GITHUB_SERVER_URL):
 * a github.com gist seen from GitHub Enterprise Server or GHE.com is not, and
 * that GitHub's API cannot tell whether it is secret.
 */
export function onThisGitHub(value: string, serverUrl: string): boolean {
  const host = gistHostOf(value);
  let server: string;
  try {
    server = new URL(serverUrl).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return true;
  }
  return host === null || host.replace(/^www\./, '') === server;
}
