import { failureError, type HttpTarget, type Posted } from './engine-http.ts'
import { READ_REPEAT, type Repeat } from './engine-repeat.ts'
import type { BatchLimits } from './openai/openai-batch-wire.ts'

/** Where a bulk lane sends: the API root, the per-request lane's target and key. */
export interface BatchTarget {
  readonly root: string
  readonly target: HttpTarget
  readonly apiKey: string | null
}

/** The options every bulk lane takes. */
export interface BatchLaneOptions {
  /** Requests per batch; the provider's limit by default. */
  readonly maxRequests?: number
  /** Bytes of a batch's body or input file; the provider's limit by default. */
  readonly maxBytes?: number
  /** Limit of a batch's upload, creation or its results' download, in milliseconds; default 10 minutes. */
  readonly transferTimeoutMs?: number
  /** How a read (a poll, a page of a list, a download) is tried again; default READ_REPEAT. */
  readonly repeat?: Repeat
}

/** What a bulk lane works with: its limits per batch, the target of its transfers and how its reads are repeated. */
export interface LaneSettings {
  readonly limits: BatchLimits
  readonly transfer: HttpTarget
  readonly repeat: Repeat
}

/** A lane's settings from its options, the provider's `limits` where they name none. */
export function laneSettings(at: BatchTarget, options: BatchLaneOptions, limits: BatchLimits): LaneSettings {
  return {
    limits: {
      maxRequests: options.maxRequests ?? limits.maxRequests,
      maxBytes: options.maxBytes ?? limits.maxBytes,
    },
    transfer: { ...at.target, timeoutMs: options.transferTimeoutMs ?? 600_000 },
    repeat: options.repeat ?? READ_REPEAT,
  }
}

/** A send's text, or its failure as the EngineError the port rejects with, the key scrubbed. */
export function sentText(posted: Posted, apiKey: string | null): string {
  if (!posted.ok) throw failureError(posted.failure, apiKey)
  return posted.value
}
