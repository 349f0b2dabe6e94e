import { sha256 } from '../hash.ts'

/**
 * The place of an answer in the review queue's sample order: a 48-bit integer taken from
 * SHA-256 of judgment, question and state hash joined by NUL. Sorting by it gives an order that
 * looks random, never changes between requests, and lets a reviewed row leave the sample without
 * reshuffling the others. 48 bits keep it a safe integer in JavaScript and an INTEGER in SQLite.
 */
export function sampleRank(judgment: string, question: string, stateHash: string): number {
  return Number.parseInt(sha256(`${judgment}\0${question}\0${stateHash}`).slice(0, 12), 16)
}
