// The parts of autocannon's programmatic API the benches use; the package ships no types.
declare module 'autocannon' {
  /** One request of a sequence each connection loops over. */
  export interface AutocannonRequest {
    readonly method?: string
    readonly path?: string
    readonly headers?: Record<string, string>
    readonly body?: string
  }
  /** Options of a load run. */
  export interface AutocannonOptions {
    readonly url: string
    readonly connections?: number
    readonly duration?: number
    readonly amount?: number
    readonly method?: string
    readonly headers?: Record<string, string>
    readonly body?: string
    readonly requests?: readonly AutocannonRequest[]
    readonly timeout?: number
  }
  /** A distribution summary as autocannon reports it. */
  export interface Histogram {
    readonly average: number
    readonly mean: number
    readonly stddev: number
    readonly min: number
    readonly max: number
    readonly p50: number
    readonly p90: number
    readonly p99: number
    readonly total: number
  }
  /** What a load run measured. */
  export interface AutocannonResult {
    readonly requests: Histogram
    readonly latency: Histogram
    readonly throughput: Histogram
    readonly errors: number
    readonly timeouts: number
    readonly non2xx: number
    readonly duration: number
    readonly '2xx': number
  }
  /** Runs a load test; resolves with its result. */
  export default function autocannon(options: AutocannonOptions): Promise<AutocannonResult>
}
