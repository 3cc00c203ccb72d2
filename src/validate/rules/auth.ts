import { secureUrlProblem } from '../../common/urls.js';
import { didYouMean } from '../../common/suggest.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { diagnosticAt } from '../../parse/source.js';
import { report } from '../report.js';
import type { Located, SpecView } from '../view.js';

/** RFC 6749 §3.3 scope-token: printable ASCII except space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * `auth:` and the per-item `scopes` (MCPG070–MCPG076). Over stdio auth does not apply; these rules are
 * about what the HTTP transport will publish and enforce.
 */
export function checkAuth(view: SpecView): Diagnostic[] {
  const auth = view.spec.auth;
  const out: Diagnostic[] = [];
  const items: Located<{ readonly scopes?: readonly string[] }>[] = [...view.tools, ...view.resources, ...view.resourceTemplates, ...view.prompts];
  if (auth === undefined) {
    for (const item of items) {
      if (item.value.scopes !== undefined) {
        out.push(report(item, 'MCPG074', 'this entry lists `scopes`, but the spec has no `auth:` section (scopes are only enforced on a protected HTTP server)', ['scopes'], 'key'));
      }
    }
    return out;
  }
  const servers = auth.authorizationServers ?? [];
  if (servers.length === 0) {
    const path = auth.authorizationServers === undefined ? ['auth'] : ['auth', 'authorizationServers'];
    out.push(diagnosticAt(view.root, path, 'MCPG071', '`auth` needs at least one authorization server: `authorizationServers: [https://issuer.example.com]`'));
  }
  servers.forEach((issuer, i) => {
    const problem = secureUrlProblem(issuer, { query: false });
    if (problem !== undefined) out.push(diagnosticAt(view.root, ['auth', 'authorizationServers', i], 'MCPG072', `authorization server ${JSON.stringify(issuer)} ${problem}`));
  });
  if (auth.resource !== undefined) {
    const problem = secureUrlProblem(auth.resource);
    if (problem !== undefined) out.push(diagnosticAt(view.root, ['auth', 'resource'], 'MCPG073', `auth.resource ${JSON.stringify(auth.resource)} ${problem}`));
  }
  if (auth.documentation !== undefined && !/^https?:\/\/[^\s]+$/.test(auth.documentation)) {
    out.push(diagnosticAt(view.root, ['auth', 'documentation'], 'MCPG076', `auth.documentation ${JSON.stringify(auth.documentation)} is not an absolute http(s) URL`));
  }
  const declared = Object.keys(auth.scopes ?? {});
  for (const scope of declared) {
    const problem = scopeProblem(scope);
    if (problem !== undefined) out.push(diagnosticAt(view.root, ['auth', 'scopes', scope], 'MCPG075', `scope ${JSON.stringify(scope)} ${problem}`, 'key'));
  }
  const known = new Set(declared);
  /** MCPG070 for each entry of `list` not declared; `at(i, message)` builds the positioned diagnostic. */
  const undeclared = (list: readonly string[] | undefined, at: (i: number, message: string) => Diagnostic) => {
    (list ?? []).forEach((scope, i) => {
      if (known.has(scope)) return;
      const hint = didYouMean(scope, declared);
      const suffix = hint !== undefined ? `; did you mean "${hint}"?` : declared.length > 0 ? `; declared: ${declared.join(', ')}` : '';
      out.push(at(i, `scope ${JSON.stringify(scope)} is not declared under auth.scopes${suffix}`));
    });
  };
  undeclared(auth.requiredScopes, (i, message) => diagnosticAt(view.root, ['auth', 'requiredScopes', i], 'MCPG070', message));
  for (const item of items) undeclared(item.value.scopes, (i, message) => report(item, 'MCPG070', message, ['scopes', i]));
  return out;
}

function scopeProblem(scope: string): string | undefined {
  if (!SCOPE_TOKEN.test(scope)) return 'is not an OAuth scope-token (printable ASCII, no spaces, quotes or backslashes)';
  if (scope === 'offline_access') return 'is `offline_access`: a resource server never lists it (clients ask for refresh tokens from the authorization server)';
  return undefined;
}
