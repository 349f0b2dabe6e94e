import t from 'tap'
import { join } from 'node:path'
import { compareQueue, recordComparison } from '../../src/app/compare-review.ts'
import { compareStored } from '../../src/app/compare.ts'
import { loadProject } from '../../src/adapters/files/spec-files.ts'
import { readConfig } from '../../src/config.ts'
import { discordantOrder } from '../../src/core/compare/compare.ts'
import { ConflictError, UsageError } from '../../src/errors.ts'
import { createRuntime } from '../../src/runtime.ts'
import { message, setup } from '../helpers/replay-project.ts'
import { stateHash } from '../../src/core/judge/state.ts'

t.test(
  'the comparison review offers the rows where the specs differ, blind, in order; a verdict takes one off and never touches the live verdicts',
  async (t) => {
    // Shadowed rows 0-5: the live wording says yes to 0-3, the candidate's to 0-2, 4 and 5: they differ on 3, 4 and 5.
    const { dir, env, engine, before } = await setup(t, { keep: 10, shadowed: 6 })
    const runtime = createRuntime(readConfig(env, dir))
    t.teardown(() => runtime.close())
    const target = {
      live: loadProject(join(dir, 'spam.judge.yaml')),
      candidate: loadProject(join(dir, 'candidates/spam-v2.judge.yaml')),
    }
    const queue = await compareQueue(runtime, target)
    t.match(queue, { judgment: 'spam', candidate: 'spam-v2', left: { is_spam: 3, topic: 0 } })
    const differ = [3, 4, 5].map((i) => stateHash({ message: message(i) }))
    t.same(new Set(queue.cards.map((c) => c.state_hash)), new Set(differ))
    const order = discordantOrder(
      'spam',
      'is_spam',
      differ.map((h) => ({ stateHash: h, live: 'a', candidate: 'b' })),
    ).map((r) => r.stateHash)
    t.same(
      queue.cards.map((c) => c.state_hash),
      order,
      "in the comparison's order",
    )
    for (const card of queue.cards) {
      t.same([...card.shown].sort(), ['no', 'yes'], 'both labels shown')
      t.same(card.choices, ['yes', 'no'])
      t.match(card.state, { message: /^msg [345]$/ })
    }
    const first = queue.cards[0]
    const request = {
      question: 'is_spam',
      stateHash: first.state_hash,
      label: 'yes',
      reviewer: 'ann',
      reviewedAt: '2026-11-25T10:00:00.000',
    }
    const record = await recordComparison(runtime, target, request)
    t.match(record, {
      kind: 'compare',
      verdict: 'labeled',
      labels: ['yes'],
      judgment: 'spam',
      question: 'is_spam',
      state_hash: first.state_hash,
    })
    t.equal((await compareQueue(runtime, target)).left.is_spam, 2, 'the row left the review')
    t.same(
      await runtime.files.verdicts(target.live.selected[0]),
      new Map(),
      'no live verdict: the live estimate cannot move',
    )
    t.match(
      (await compareStored(runtime, { ...target, margin: 0.01 })).questions.is_spam,
      { reviewed: 1, method: 'discordant rows' },
      'it counts as a known label in the comparison',
    )
    await t.rejects(
      recordComparison(runtime, target, request),
      ConflictError,
      'a row whose label is known is not offered again',
    )
    await t.rejects(
      recordComparison(runtime, target, { ...request, stateHash: queue.cards[1].state_hash, label: 'maybe' }),
      UsageError,
    )
    await t.rejects(recordComparison(runtime, target, { ...request, question: 'nope' }), UsageError)
    t.equal(engine.requests.length, before, 'nothing asked')
  },
)
