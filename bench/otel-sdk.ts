// Preloaded into a judge server by bench/observe-cost.ts (`node --import ./bench/otel-sdk.ts …`):
// the OpenTelemetry SDK registered as a host would register it (docs/deploy.md, Traces), every span
// sampled and batched, and an exporter that counts the spans and drops them, so that the bench
// measures what tracing costs the server and not a collector's network.
import { context, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base'

let exported = 0
const dropping: SpanExporter = {
  export(spans: ReadableSpan[], done) {
    exported += spans.length
    done({ code: 0 })
  },
  shutdown: async () => {},
}
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] }))
process.once('exit', () => process.stderr.write(`spans exported: ${exported}\n`))
