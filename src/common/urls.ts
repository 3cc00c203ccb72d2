// URL checks shared by the validator and the runtime (auth issuers and resource identifiers).

/** Hosts that never leave the machine: plain http is acceptable for them (local development, tests). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '[::1]' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Why `value` is not an https URL (http allowed on loopback), or `undefined` when it is one. */
export function secureUrlProblem(value: string, options: { readonly query?: boolean } = {}): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return url.protocol === 'http:' ? 'uses http on a non-loopback host (https is required)' : `uses ${url.protocol.replace(/:$/, '')} (https is required)`;
  }
  if (url.hash !== '' || value.includes('#')) return 'has a fragment';
  if (options.query === false && (url.search !== '' || value.includes('?'))) return 'has a query';
  if (url.username !== '' || url.password !== '') return 'carries credentials';
  return undefined;
}
