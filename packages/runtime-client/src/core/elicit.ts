// An input request as onElicit sees it, and its answer: read by the client (client/) and by task rounds
// (tasks/), so it sits below both.
export interface ElicitRequestInfo {
  readonly mode: 'form' | 'url';
  readonly message: string;
  readonly requestedSchema?: Readonly<Record<string, unknown>>;
  readonly url?: string;
}

export type ElicitAnswer = { readonly action: 'accept'; readonly content?: Readonly<Record<string, unknown>> } | { readonly action: 'decline' | 'cancel' };

export function elicitRequestInfo(p: Readonly<Record<string, unknown>>): ElicitRequestInfo {
  return {
    mode: p.mode === 'url' ? 'url' : 'form',
    message: String(p.message ?? ''),
    ...(typeof p.requestedSchema === 'object' && p.requestedSchema !== null ? { requestedSchema: p.requestedSchema as Record<string, unknown> } : {}),
    ...(typeof p.url === 'string' ? { url: p.url } : {}),
  };
}
