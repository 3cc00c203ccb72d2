// A minimal OTLP/HTTP trace receiver on 127.0.0.1 for tests: accepts `POST /v1/traces` in OTLP JSON (what
// @opentelemetry/exporter-trace-otlp-http sends), gzip or not, and keeps the spans flattened.
import { createServer, type IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';

/** OTLP span kinds (the API's SpanKind + 1). */
export const OTLP_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;

export interface ReceivedSpan {
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly attributes: Record<string, string | number | boolean>;
  readonly service: string | undefined;
}

export interface OtlpReceiver {
  /** The traces endpoint, for OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or the exporter's `url`. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };
type OtlpSpan = { name: string; kind: number; traceId: string; spanId: string; parentSpanId?: string; attributes?: KeyValue[] };
type Export = { resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[] };

function valueOf(v: AnyValue): string | number | boolean {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  return v.boolValue ?? '';
}

function attributes(list: readonly KeyValue[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    void body(req).then((raw) => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('json')) {
        res.writeHead(415).end();
        return;
      }
      const request = JSON.parse(raw.toString('utf8')) as Export;
      for (const rs of request.resourceSpans ?? []) {
        const service = attributes(rs.resource?.attributes)['service.name'];
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({ name: s.name, kind: s.kind, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId || undefined, attributes: attributes(s.attributes), service: typeof service === 'string' ? service : undefined });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/v1/traces`, spans, close: () => new Promise((r) => server.close(() => r())) };
}
