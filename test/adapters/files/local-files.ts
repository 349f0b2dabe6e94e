import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import { createLocalFiles } from '../../../src/adapters/files/local-files.ts'
import { REVIEW_COLUMNS } from '../../../src/adapters/files/reviews-file.ts'
import type { Row } from '../../../src/core/types.ts'
import { filesContract, verdict } from '../../helpers/files-contract.ts'
import { spec, SPAM_YAML } from '../../helpers/specs.ts'

/** A CSV file of rows whose values are all text, with their columns as the header. */
function csv(rows: readonly Row[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))]
  return stringify([columns, ...rows.map((r) => columns.map((c) => String(r[c] ?? '')))])
}

await filesContract(t, 'the local files keep the Files contract', (t, content) => {
  const dir = t.testdir({ 'messages.csv': csv(content.rows), 'spam.key.csv': csv(content.key) })
  return {
    files: createLocalFiles(),
    spec: spec(SPAM_YAML + 'key: spam.key.csv\n', join(dir, 'spam.judge.yaml')),
    data: join(dir, 'messages.csv'),
    dir,
  }
})

t.test('the key, the reviews file and the rows are the files the spec names, beside it', async (t) => {
  const dir = t.testdir({
    'spam.judge.yaml': SPAM_YAML,
    'answers.csv': 'message,is_spam\nhello,no\n',
    'rows.jsonl': '{"message": "hello", "n": 1}\n\n{"message": "bye"}\n',
  })
  const judgment = spec(SPAM_YAML + 'key: answers.csv\nreviews: checked.csv\n', join(dir, 'spam.judge.yaml'))
  const files = createLocalFiles()
  t.match(
    [...(await files.key(judgment)).values()],
    [{ state: { message: 'hello' }, labels: { is_spam: 'no' }, where: `${join(dir, 'answers.csv')}:2` }],
  )
  await files.appendVerdict(judgment, verdict('hello'))
  t.equal(
    readFileSync(join(dir, 'checked.csv'), 'utf8').split('\n')[0],
    REVIEW_COLUMNS.join(','),
    'the reviews file named by reviews:, made with its header',
  )
  t.same([...(await files.verdicts(judgment)).values()], [verdict('hello')])
  const rows = []
  for await (const r of files.rows(join(dir, 'rows.jsonl'), 'rows.jsonl')) rows.push(r)
  t.same(
    rows,
    [
      { row: { message: 'hello', n: 1 }, where: 'rows.jsonl:1' },
      { row: { message: 'bye' }, where: 'rows.jsonl:3' },
    ],
    'JSON Lines by the extension',
  )
})

t.test('outside a repository the commit is empty', async (t) => {
  t.equal(await createLocalFiles().gitSha('/'), '')
})
