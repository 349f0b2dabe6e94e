import { pathToFileURL } from 'node:url'

// Runs several test files in one process, one after another: `node run-group.ts a.ts b.ts`. Each
// file registers its tests on tap's one root test, which runs them in the order imported. The
// process's argv names the file being imported, as when it runs alone, so that the folders tap
// makes for a test (t.testdir) are named after their own file.

for (const file of process.argv.slice(2)) {
  process.argv.splice(1, Infinity, file)
  await import(pathToFileURL(file).href)
}
