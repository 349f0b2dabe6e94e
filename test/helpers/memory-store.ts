import { sampleRank } from '../../src/core/stats/sample-rank.ts'
import { gridCells } from '../../src/core/tally/cells.ts'
import { sourceCounts } from '../../src/core/tally/sources.ts'
import type { State } from '../../src/core/types.ts'
import type { AnswerCell, AnswerGroup, MarginBand, StoredAnswer } from '../../src/ports/answer-store.ts'
import type { CandidateQuestion, KeptRow, ShadowPair } from '../../src/ports/kept-store.ts'
import type { DaySpend } from '../../src/ports/pace-store.ts'
import type { PaceCut } from '../../src/core/pacing/adaptive-rate.ts'
import type { Store, StoreMethod } from '../../src/ports/store.ts'
import { STORE_METHODS } from '../../src/adapters/sqlite/sqlite-store-groups.ts'
import { sourceToWrite, storedAt } from '../../src/adapters/sqlite/sqlite-store-answers.ts'
import { createMemoryForget, type StoredState } from './memory-store-forget.ts'
import { createMemoryRuns } from './memory-store-runs.ts'
import { createMemoryReasks } from './memory-store-reasks.ts'
import { createMemoryLeases } from './memory-store-leases.ts'
import { createMemoryBatches } from './memory-store-batches.ts'
import { createMemoryJury } from './memory-store-jury.ts'

// Values are kept as copies (JSON text for objects), so that a caller mutating what it wrote or
// read cannot change the store, as with the real adapter.
interface AnswerEntry {
  readonly answer: StoredAnswer
  readonly distribution: string
  readonly rank: number
}

interface KeptEntry {
  firstSeen: string
  lastSeen: string
  seen: number
}

const key = (...parts: string[]): string => parts.join('\0')
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

// A band holds an answer whose margin lies in it and, when it says, whose split (dissent above 0) is the band's.
const within = (a: StoredAnswer, band: MarginBand | undefined): boolean =>
  !band || (a.margin >= band.from && a.margin < band.below && (band.split === undefined || band.split === isSplit(a)))
const isSplit = (a: StoredAnswer): boolean => (a.dissent ?? 0) > 0

/** The limit as the SQLite adapter reads it: 0 or less is none, Infinity is all. */
function take<T>(items: T[], limit: number): T[] {
  if (limit === Infinity) return items
  return items.slice(0, Number.isFinite(limit) ? Math.max(0, Math.trunc(limit)) : 0)
}

/** An in-memory Store with the SQLite adapter's observable behaviour, for unit tests of the core. */
export function createMemoryStore(): Store {
  return marked(memoryStore())
}

/** The store with its write mark: a count of the calls that may have written (STORE_METHODS says which). */
function marked(store: Omit<Store, 'writeMark'>): Store {
  let writes = 0
  const methods = Object.fromEntries(
    Object.entries(store as unknown as Record<string, (...args: unknown[]) => unknown>).map(([name, method]) => [
      name,
      STORE_METHODS[name as StoreMethod]?.kind !== 'write'
        ? method
        : (...args: unknown[]) => {
            writes++
            return method(...args)
          },
    ]),
  )
  return { ...(methods as unknown as Omit<Store, 'writeMark'>), writeMark: () => writes }
}

function memoryStore(): Omit<Store, 'writeMark'> {
  const answers = new Map<string, Map<string, AnswerEntry>>()
  const states = new Map<string, StoredState>()
  const candidates = new Map<string, CandidateQuestion>()
  const kept = new Map<string, Map<string, KeptEntry>>()
  const shadows = new Map<string, Map<string, ShadowPair>>()
  const pace = new Map<string, number>()
  const cuts = new Map<string, PaceCut>()
  const spend = new Map<string, Map<string, DaySpend>>()

  const answersOf = (model: string, fingerprint: string): Map<string, AnswerEntry> =>
    answers.get(key(model, fingerprint)) ?? new Map()
  const allAnswers = (): StoredAnswer[] => [...answers.values()].flatMap((g) => [...g.values()].map((e) => e.answer))
  const read = (entry: AnswerEntry): StoredAnswer => storedAnswer(entry.answer, JSON.parse(entry.distribution))
  const byRankThenHash = (a: AnswerEntry, b: AnswerEntry): number =>
    a.rank - b.rank || byText(a.answer.stateHash, b.answer.stateHash)

  // The first answer written for a key is kept; a later one changes nothing and gets it back.
  function putAnswer(a: StoredAnswer): StoredAnswer {
    const group = answers.get(key(a.model, a.fingerprint)) ?? new Map<string, AnswerEntry>()
    answers.set(key(a.model, a.fingerprint), group)
    const first = group.get(a.stateHash)
    if (first) return read(first)
    const entry = {
      answer: storedAnswer(a, {}),
      distribution: JSON.stringify(a.distribution),
      rank: sampleRank(a.judgment, a.question, a.stateHash),
    }
    group.set(a.stateHash, entry)
    return read(entry)
  }

  // Saves the state's values and each answer whose key is not held yet; gives what is held for each key.
  function putAnswers(list: readonly StoredAnswer[], stateHash: string, state: State): StoredAnswer[] {
    store(stateHash, state, storedAt(list))
    return list.map(putAnswer)
  }

  // A state's values are written once; storing them again moves only the time they were last stored.
  const store = (stateHash: string, state: State, at: string) => {
    const was = states.get(stateHash)
    states.set(stateHash, {
      json: was?.json ?? JSON.stringify(state),
      storedAt: was && was.storedAt > at ? was.storedAt : at,
    })
  }
  const runs = createMemoryRuns()
  return {
    getAnswers(model, stateHash, fingerprints) {
      const found = new Map<string, StoredAnswer>()
      for (const fingerprint of fingerprints) {
        const entry = answersOf(model, fingerprint).get(stateHash)
        if (entry) found.set(fingerprint, read(entry))
      }
      return found
    },
    answeredFingerprints(model, stateHash, fingerprints) {
      return new Set(fingerprints.filter((fingerprint) => answersOf(model, fingerprint).has(stateHash)))
    },
    putAnswers,
    // The keys given are emptied first, so that each new answer is the first of its key.
    replaceAnswers(list, stateHash, state) {
      for (const a of list) answers.get(key(a.model, a.fingerprint))?.delete(a.stateHash)
      return putAnswers(list, stateHash, state)
    },
    getStates(stateHashes) {
      const found = new Map<string, State>()
      for (const hash of stateHashes) {
        const state = states.get(hash)
        if (state !== undefined && !found.has(hash)) found.set(hash, JSON.parse(state.json))
      }
      return found
    },
    answersForStates(model, fingerprint, stateHashes) {
      const group = answersOf(model, fingerprint)
      return [...new Set(stateHashes)].flatMap((hash) => {
        const entry = group.get(hash)
        return entry ? [read(entry)] : []
      })
    },
    answerLabels(model, fingerprints, stateHashes) {
      return new Map(
        fingerprints.map((fp) => {
          const group = answersOf(model, fp)
          return [fp, new Map(stateHashes.flatMap((h) => (group.has(h) ? [[h, group.get(h)!.answer.label]] : [])))]
        }),
      )
    },
    sampleAnswers(model, fingerprint, _judgment, _question, limit, band) {
      const inBand = [...answersOf(model, fingerprint).values()].filter((e) => within(e.answer, band))
      return take(inBand.sort(byRankThenHash), limit).map(read)
    },
    countAnswers(model, fingerprint, band) {
      return [...answersOf(model, fingerprint).values()].filter((e) => within(e.answer, band)).length
    },
    answerCells(model, fingerprint, resolution) {
      const cells = new Map<string, AnswerCell>()
      for (const { answer: a } of answersOf(model, fingerprint).values()) {
        const split = isSplit(a)
        const id = key(a.label, String(a.p), String(a.margin), String(split))
        const count = (cells.get(id)?.count ?? 0) + 1
        cells.set(id, { label: a.label, p: a.p, margin: a.margin, count, ...(split ? { split } : {}) })
      }
      const exact = [...cells.values()].sort(
        (a, b) =>
          byText(a.label, b.label) || a.p - b.p || a.margin - b.margin || Number(a.split ?? 0) - Number(b.split ?? 0),
      )
      return resolution === 'grid' ? gridCells(exact) : exact
    },
    countSources(model, fingerprint) {
      return sourceCounts([...answersOf(model, fingerprint).values()].map((e) => [e.answer.source ?? null, 1]))
    },
    modelAnswerCounts(fingerprints) {
      const counts = new Map<string, number>()
      for (const group of answers.values())
        for (const { answer } of group.values())
          if (fingerprints.includes(answer.fingerprint)) counts.set(answer.model, (counts.get(answer.model) ?? 0) + 1)
      return new Map([...counts].sort(([a], [b]) => byText(a, b)))
    },
    ...runs,
    answerGroups() {
      const groups: AnswerGroup[] = []
      for (const group of answers.values()) {
        const byAsker = new Map<string, StoredAnswer[]>()
        for (const { answer } of group.values()) {
          const id = key(answer.judgment, answer.question)
          byAsker.set(id, [...(byAsker.get(id) ?? []), answer])
        }
        for (const list of byAsker.values()) groups.push(groupOf(list))
      }
      return groups.sort(
        (a, b) =>
          byText(a.judgment, b.judgment) ||
          byText(a.question, b.question) ||
          byText(a.model, b.model) ||
          byText(b.newest, a.newest) ||
          byText(a.fingerprint, b.fingerprint),
      )
    },
    deleteAnswers(group) {
      const entries = answers.get(key(group.model, group.fingerprint)) ?? new Map<string, AnswerEntry>()
      let deleted = 0
      for (const [hash, { answer }] of entries) {
        if (answer.judgment !== group.judgment || answer.question !== group.question) continue
        entries.delete(hash)
        deleted++
      }
      return deleted
    },
    keepRow(judgment, stateHash, state, at) {
      store(stateHash, state, at)
      const rows = kept.get(judgment) ?? new Map<string, KeptEntry>()
      kept.set(judgment, rows)
      const row = rows.get(stateHash)
      if (!row) rows.set(stateHash, { firstSeen: at, lastSeen: at, seen: 1 })
      else {
        if (at < row.firstSeen) row.firstSeen = at
        if (at > row.lastSeen) row.lastSeen = at
        row.seen += 1
      }
    },
    keptRows(judgment) {
      // As the store's join: a kept row whose values were forgotten is not offered.
      const rows = [...(kept.get(judgment) ?? new Map<string, KeptEntry>())].filter(([stateHash]) =>
        states.has(stateHash),
      )
      rows.sort(([, a], [, b]) => byText(a.firstSeen, b.firstSeen))
      return rows.map(
        ([stateHash, row]): KeptRow => ({
          judgment,
          stateHash,
          state: JSON.parse(states.get(stateHash)!.json),
          ...row,
        }),
      )
    },
    recordShadow(pairs, candidate = []) {
      for (const c of candidate) {
        const id = key(c.judgment, c.specHash, c.question)
        const seenAt =
          candidates.has(id) && candidates.get(id)!.seenAt > c.seenAt ? candidates.get(id)!.seenAt : c.seenAt
        candidates.set(id, { ...c, seenAt })
      }
      for (const pair of pairs) {
        const recorded = shadows.get(pair.liveJudgment) ?? new Map<string, ShadowPair>()
        shadows.set(pair.liveJudgment, recorded)
        const id = key(pair.candidateJudgment, pair.candidateHash, pair.stateHash, pair.question)
        recorded.set(id, shadowPair(pair))
      }
    },
    shadowPairs(liveJudgment) {
      const pairs = [...(shadows.get(liveJudgment)?.values() ?? [])].map(shadowPair)
      return pairs.sort((a, b) => byText(a.at, b.at))
    },
    candidateQuestions() {
      return [...candidates.values()]
        .map((c) => ({ ...c }))
        .sort(
          (a, b) => byText(a.judgment, b.judgment) || byText(a.specHash, b.specHash) || byText(a.question, b.question),
        )
    },
    reservePace(key, now, spacingMs, latest) {
      const at = Math.max(now, pace.get(key) ?? 0)
      const reserved = at <= latest
      if (reserved && spacingMs > 0) pace.set(key, at + spacingMs)
      return { at, reserved }
    },
    holdPace(key, until) {
      pace.set(key, Math.max(pace.get(key) ?? 0, until))
    },
    paceCut(key) {
      return cuts.get(key) ?? null
    },
    cutPace(key, cut, sentAt) {
      const last = cuts.get(key)
      if (last !== undefined && last.at >= sentAt) return last
      cuts.set(key, cut)
      return cut
    },
    addSpend(day, source, cost, requests) {
      const days = spend.get(source) ?? new Map<string, DaySpend>()
      spend.set(source, days)
      const was = days.get(day) ?? { day, cost: 0, requests: 0 }
      days.set(day, { day, cost: was.cost + cost, requests: was.requests + requests })
    },
    spendByDay(source, limit) {
      const days = [...(spend.get(source)?.values() ?? [])].sort((a, b) => byText(b.day, a.day))
      return take(days, limit).map((d) => ({ ...d }))
    },
    ...createMemoryReasks(),
    ...createMemoryLeases(),
    ...createMemoryBatches(),
    ...createMemoryJury(allAnswers),
    ...createMemoryForget({ states, kept, answers: allAnswers }),
    close() {},
  }
}

/** One answer group of answers sharing model, fingerprint and first asker. */
function groupOf(list: readonly StoredAnswer[]): AnswerGroup {
  const times = list.map((a) => a.askedAt).sort(byText)
  const [{ judgment, question, model, fingerprint }] = list
  return { judgment, question, model, fingerprint, answers: list.length, oldest: times[0], newest: times.at(-1)! }
}

/** A copy of an answer with its fields in the order the SQLite adapter reads them. */
function storedAnswer(a: StoredAnswer, distribution: StoredAnswer['distribution']): StoredAnswer {
  return {
    model: a.model,
    fingerprint: a.fingerprint,
    stateHash: a.stateHash,
    judgment: a.judgment,
    question: a.question,
    distribution,
    label: a.label,
    p: a.p,
    margin: a.margin,
    askedAt: a.askedAt,
    reportedModel: a.reportedModel ?? a.model,
    optionMass: a.optionMass ?? null,
    source: sourceToWrite(a),
    samples: a.samples ?? null,
    dissent: a.dissent ?? null,
  }
}

/** A copy of a shadow pair with its fields in the order of the `_judge_shadows` columns. */
function shadowPair(s: ShadowPair): ShadowPair {
  return {
    liveJudgment: s.liveJudgment,
    candidateJudgment: s.candidateJudgment,
    candidateHash: s.candidateHash,
    stateHash: s.stateHash,
    question: s.question,
    liveLabel: s.liveLabel,
    candidateLabel: s.candidateLabel,
    at: s.at,
  }
}
