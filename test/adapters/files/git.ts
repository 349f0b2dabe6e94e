import t from 'tap'
import { execFileSync } from 'node:child_process'
import { gitShortSha } from '../../../src/adapters/files/git.ts'

t.test('the short commit of the repository holding a folder', async (t) => {
  const dir = t.testdir({ 'a.txt': 'a' })
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim()
  git('init', '-q')
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'x')
  t.equal(await gitShortSha(dir), git('rev-parse', '--short', 'HEAD'))
})

t.test('outside a repository the commit is empty', async (t) => {
  t.equal(await gitShortSha('/'), '')
})
