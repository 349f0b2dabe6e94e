import { execFile } from 'node:child_process'

/** The short commit id of the repository holding `dir`, or "" outside a repository or without git. */
export function gitShortSha(dir: string): Promise<string> {
  return new Promise((resolve) => {
    execFile('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { timeout: 5000 }, (error, stdout) => {
      resolve(error ? '' : stdout.trim())
    })
  })
}
