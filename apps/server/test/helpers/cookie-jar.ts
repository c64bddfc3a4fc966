/**
 * A minimal browser stand-in for flows that hop through redirects and cookies (OpenID sign-in). Keeps one
 * cookie per name for the single test host and ignores Path/Domain, which is enough when names are unique.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Records every Set-Cookie of a response, dropping cookies that are cleared or expired. */
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const expired = attributes.some((attr) => {
        const [key = '', val = ''] = attr.split('=');
        if (key.toLowerCase() === 'max-age') return Number(val) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(val) <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** fetch without following redirects, sending and storing cookies like a browser would. */
  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header();
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(response);
    return response;
  }

  /**
   * Follows redirects with GET (as browsers do after 302/303) until `stop(url)` is true for the next location
   * or a response is not a redirect. Returns the last response and the location it pointed to, if any.
   */
  async follow(
    start: string | URL,
    stop: (location: URL) => boolean = () => false,
    maxHops = 10,
  ): Promise<{ response: Response; location: URL | null; url: URL }> {
    let url = new URL(start);
    for (let hop = 0; hop < maxHops; hop++) {
      const response = await this.fetch(url);
      const next = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !next) return { response, location: null, url };
      const location = new URL(next, url);
      await response.body?.cancel();
      if (stop(location)) return { response, location, url };
      url = location;
    }
    throw new Error(`more than ${maxHops} redirects from ${String(start)}`);
  }
}
