import t from 'tap'
import { filesContract } from '../helpers/files-contract.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'

await filesContract(t, 'the in-memory fake keeps the Files contract', (_t, content) => ({
  files: createMemoryFiles({
    rows: { '/specs/messages.csv': content.rows },
    keys: { '/specs/spam.key.csv': content.key },
  }),
  spec: spec(SPAM_YAML + 'key: spam.key.csv\n'),
  data: '/specs/messages.csv',
  dir: '/specs',
}))

t.test('the fake keeps every verdict appended, per reviews file, in order', async (t) => {
  const files = createMemoryFiles()
  const judgment = spec()
  const a = {
    reviewed_at: 'a',
    reviewer: 'ann',
    judgment: 'spam',
    question: 'is_spam',
    state_hash: 'h',
    kind: 'unsure',
    verdict: 'confirmed',
    labels: ['no'],
    model_label: 'no',
    key_label: null,
    state: { message: 'm' },
    stratum: null,
    rank: null,
  } as const
  await files.appendVerdict(judgment, a)
  await files.appendVerdict(judgment, { ...a, reviewed_at: 'b' })
  t.same(
    files.appended.get(judgment.reviews)?.map((v) => v.reviewed_at),
    ['a', 'b'],
  )
})
