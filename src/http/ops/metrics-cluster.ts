import type { Worker } from 'node:cluster'
import type { FamilySnapshot } from './metrics.ts'

// With workers (src/http/workers.ts), the worker that is scraped asks the others for their series
// through the primary, over the cluster's IPC channel, and sums them (mergeSnapshots): any
// worker's /metrics reports the whole server.

/** How long a scrape waits for the other workers; one that has not answered by then is left out (and said to be). */
export const GATHER_MS = 2000

type Message =
  | { readonly kind: 'judge-metrics-gather'; readonly id: number }
  | { readonly kind: 'judge-metrics-ask'; readonly id: number }
  | { readonly kind: 'judge-metrics-reply'; readonly id: number; readonly families: FamilySnapshot[] }
  | {
      readonly kind: 'judge-metrics-gathered'
      readonly id: number
      readonly snapshots: FamilySnapshot[][]
      readonly missing: number
    }

const isMessage = (m: unknown): m is Message =>
  typeof m === 'object' && m !== null && String((m as Message).kind).startsWith('judge-metrics-')

/** What the other workers answered, and how many did not in time. */
export interface Gathered {
  readonly snapshots: readonly FamilySnapshot[][]
  readonly missing: number
}

/**
 * In a worker: answers the primary's requests for this worker's series, and returns how to gather
 * the other workers' (nothing outside a cluster) and how to stop answering.
 */
export function joinPeers(
  snapshot: () => FamilySnapshot[],
  clustered: boolean,
): { gather(): Promise<Gathered>; leave(): void } {
  // With several workers each is a process node:cluster started, with an IPC channel to the
  // primary: told so by the configuration, without loading node:cluster, which a server of one
  // process never loads.
  if (!clustered || !process.send) return { gather: async () => ({ snapshots: [], missing: 0 }), leave: () => {} }
  let next = 0
  const waiting = new Map<number, (gathered: Gathered) => void>()
  const listener = (message: unknown) => {
    if (!isMessage(message)) return
    if (message.kind === 'judge-metrics-ask')
      process.send!({ kind: 'judge-metrics-reply', id: message.id, families: snapshot() } satisfies Message)
    if (message.kind === 'judge-metrics-gathered') waiting.get(message.id)?.(message)
  }
  process.on('message', listener)
  return {
    gather() {
      const id = next++
      return new Promise<Gathered>((resolve) => {
        waiting.set(id, (gathered) => (waiting.delete(id), resolve(gathered)))
        process.send!({ kind: 'judge-metrics-gather', id } satisfies Message)
      })
    },
    leave: () => void process.off('message', listener),
  }
}

/**
 * In the primary: relays a worker's request for the others' series to every other running worker,
 * and answers it with what came back within GATHER_MS.
 */
export function relayMetrics(from: Worker, running: () => Iterable<Worker>, waitMs = GATHER_MS): void {
  let next = 0
  from.on('message', (message: unknown) => {
    if (!isMessage(message) || message.kind !== 'judge-metrics-gather') return
    const others = [...running()].filter((w) => w !== from && w.isConnected())
    const snapshots: FamilySnapshot[][] = []
    const asked = next++
    let pending = others.length
    const done = () => {
      clearTimeout(timer)
      for (const w of others) w.off('message', take)
      if (from.isConnected())
        from.send({ kind: 'judge-metrics-gathered', id: message.id, snapshots, missing: pending } satisfies Message)
    }
    const take = (reply: unknown) => {
      if (!isMessage(reply) || reply.kind !== 'judge-metrics-reply' || reply.id !== asked) return
      snapshots.push(reply.families)
      if (--pending === 0) done()
    }
    const timer = setTimeout(done, waitMs)
    for (const w of others) {
      w.on('message', take)
      w.send({ kind: 'judge-metrics-ask', id: asked } satisfies Message)
    }
    if (pending === 0) done()
  })
}
